// axe-core in the browser tests: every screen is checked in both themes (DESIGN.md, the guide's
// "every screen passes axe-core"). The script is evaluated through the DevTools protocol, which
// the page's strict CSP does not govern (an injected <script> would be refused).
/// <reference lib="dom" />
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface A11yViolation {
  id: string;
  impact: string | null;
  help: string;
  /** The offending elements' selectors and axe's summary of what is wrong with each. */
  nodes: { target: string; summary: string }[];
}

/** Runs axe-core (WCAG 2.x A and AA rules) on the page as it is; the violations, none when clean. */
export async function axeViolations(page: Page): Promise<A11yViolation[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    type AxeResult = {
      violations: {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: unknown[]; failureSummary?: string }[];
      }[];
    };
    const axe = (globalThis as unknown as { axe: { run: (ctx: Document, o: object) => Promise<AxeResult> } }).axe;
    // Colours are measured as they settle: a button the pointer just left is still fading between
    // its hover and rest colours for 0.15 s, and axe would measure a mix that no one reads.
    const fading = document.getAnimations().filter((a) => a instanceof CSSTransition);
    await Promise.race([
      Promise.all(fading.map((a) => a.finished.catch(() => undefined))),
      new Promise((r) => setTimeout(r, 1000)),
    ]);
    const r = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
      resultTypes: ["violations"],
    });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.join(" "), summary: n.failureSummary ?? "" })),
    }));
  });
}

/** A readable list of violations for an assertion message. */
export function describeViolations(vs: A11yViolation[]): string {
  return vs
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `  ${n.target}: ${n.summary}`).join("\n")}`)
    .join("\n");
}
