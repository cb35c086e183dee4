// A small demo website that carries the tracker, so a newcomer can open it and watch themselves
// arrive in Live View. /demo serves the owner's demo property; /demo/<unique_id> any property.
import { text } from "@lookout/schema";
import { z } from "zod";
import type { AppDeps } from "../app-deps.js";
import { defineRoute, type Route, raw } from "../http/route.js";
import { createDemoService } from "./service.js";

const PAGES: Record<string, { title: string; body: string }> = {
  "": { title: "Home", body: "Welcome to the Lookout demo shop. Browse around: every click shows up in your dashboard." },
  pricing: { title: "Pricing", body: "Three plans, all imaginary. Press the button to record a custom event." },
  blog: { title: "Blog", body: "Posts about nothing in particular, here to give the pages report something to show." },
  about: { title: "About", body: "This page belongs to the demo site that Lookout creates on first start." },
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(propertyId: string, slug: string): string {
  const p = PAGES[slug] ?? PAGES[""]!;
  const nav = Object.entries(PAGES)
    .map(([s, v]) => `<a href="/demo/site/${s}">${escapeHtml(v.title)}</a>`)
    .join(" · ");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(p.title)} · Demo shop</title>
<link rel="icon" href="data:,"><link rel="stylesheet" href="/demo/demo.css">
<script defer src="/js/script.js" data-property="${escapeHtml(propertyId)}" data-allow-localhost="true"></script>
<script defer src="/demo/demo.js"></script>
</head><body><header><strong>Demo shop</strong> <nav>${nav}</nav></header>
<main><h1>${escapeHtml(p.title)}</h1><p>${escapeHtml(p.body)}</p>
<p><button id="signup" type="button">Sign up (custom event)</button> <a href="https://example.com/" data-outbound>An outbound link</a></p>
<p class="note">This page is tracked by the property <code>${escapeHtml(propertyId)}</code>. Open Live View in another window to see this visit.</p></main>
</body></html>`;
}

const CSS = `body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1f2937}header{display:flex;gap:1rem;padding:1rem 2rem;background:#f3f4f6}
main{max-width:40rem;margin:2rem auto;padding:0 1rem}button{padding:.5rem 1rem}.note{color:#6b7280;font-size:.9rem}`;
const JS = `document.getElementById("signup")?.addEventListener("click",function(){if(window.lookout)window.lookout("signup",{props:{plan:"pro"},revenue:{amount:29,currency:"USD"}})});`;

export function demoRoutes(deps: AppDeps): Route[] {
  const demo = createDemoService(deps);
  const base = { method: "GET", tags: ["demo"], access: "none" } as const;
  return [
    defineRoute({
      ...base,
      url: "/demo/demo.css",
      summary: "The demo site's style sheet.",
      answer: raw("text/css"),
      handle: ({ reply }) => reply.type("text/css").send(CSS),
    }),
    defineRoute({
      ...base,
      url: "/demo/demo.js",
      summary: "The demo site's script (a custom event on the sign-up button).",
      answer: raw("application/javascript"),
      handle: ({ reply }) => reply.type("application/javascript").send(JS),
    }),
    defineRoute({
      ...base,
      url: "/demo/site/:slug?",
      summary: "A page of the demo site, tracking the demo property or ?property=<unique_id>.",
      params: z.object({ slug: text().optional() }),
      // Anything but one string (a repeated parameter, say) reads as no property given.
      query: z.object({ property: text().optional().catch(undefined) }),
      answer: raw("text/html"),
      handle: async ({ params, query, reply }) => {
        const property = await demo.property(query.property);
        if (!property) {
          return reply
            .code(404)
            .type("text/plain")
            .send("No demo property. Start Lookout with LOOKOUT_DEMO=1 on an empty store, or pass ?property=<unique_id>.");
        }
        return reply.type("text/html; charset=utf-8").send(page(property.unique_id, params.slug ?? ""));
      },
    }),
    defineRoute({
      ...base,
      url: "/demo",
      summary: "Redirects to the demo site's home page, keeping the query.",
      answer: raw("text/plain"),
      handle: ({ req, reply }) => reply.redirect(`/demo/site/${req.url.includes("?") ? `?${req.url.split("?")[1]}` : ""}`),
    }),
  ];
}
