// A local HTTP server that answers the part of Stripe's API Lookout calls (customers, Checkout
// sessions, Customer Portal sessions, cancelling a subscription) the way Stripe does — form-encoded
// requests, JSON objects with Stripe's field names, Stripe's error shape — and plays Stripe's side
// of the flows: its Checkout page has a "Pay" button that creates the subscription and its
// invoice, sends the signed webhooks (the stripe package's generateTestHeaderString) to the
// configured URL and redirects to success_url; its portal page can cancel. For tests only (the
// server's and the browser tests'); the stripe client is pointed at it with STRIPE_API_URL.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

type Obj = Record<string, unknown>;

export interface FakeStripe {
  /** http://127.0.0.1:<port>: STRIPE_API_URL. */
  url: string;
  /** Where webhooks go (Lookout's /api/v1/billing/webhook); settable once the server runs. */
  setWebhookUrl(url: string): void;
  customers: Map<string, Obj>;
  subscriptions: Map<string, Obj>;
  invoices: Map<string, Obj>;
  sessions: Map<string, Obj>;
  /** Every webhook sent, with Lookout's answer status. */
  sent: { event: Obj; status: number }[];
  /** Completes a checkout session as its "Pay" button does (without a browser). */
  pay(sessionId: string): Promise<Obj>;
  /** A failed renewal of the customer's subscription: an open invoice and invoice.payment_failed. */
  failPayment(customerId: string): Promise<Obj>;
  /** A successful renewal: a paid invoice and invoice.paid. */
  payRenewal(customerId: string): Promise<Obj>;
  /** Sends an event (signed, or with the given signature header) and returns Lookout's answer. */
  send(type: string, object: Obj, opts?: { id?: string; signature?: string }): Promise<{ status: number; body: string }>;
  stop(): Promise<void>;
}

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;
const nowS = () => Math.floor(Date.now() / 1000);

/** Stripe's form encoding (`a[b][0][c]=v`) back into nested objects and arrays. */
export function parseStripeForm(body: string): Obj {
  const out: Obj = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.split(/\[|\]\[|\]/).filter((p) => p !== "");
    let node: Obj = out;
    path.forEach((part, i) => {
      if (i === path.length - 1) {
        node[part] = value;
        return;
      }
      const nextIsIndex = /^\d+$/.test(path[i + 1] as string);
      node[part] ??= nextIsIndex ? [] : {};
      node = node[part] as Obj;
    });
  }
  return out;
}

function addMonths(s: number, months: number): number {
  const d = new Date(s * 1000);
  d.setUTCMonth(d.getUTCMonth() + months);
  return Math.floor(d.getTime() / 1000);
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startFakeStripe(opts: { webhookSecret: string; webhookUrl?: string }): Promise<FakeStripe> {
  const signer = new Stripe("sk_test_fake");
  let webhookUrl = opts.webhookUrl ?? "";
  const customers = new Map<string, Obj>();
  const subscriptions = new Map<string, Obj>();
  const invoices = new Map<string, Obj>();
  const sessions = new Map<string, Obj>();
  const portals = new Map<string, Obj>();
  const sent: FakeStripe["sent"] = [];
  let invoiceNo = 0;

  async function send(type: string, object: Obj, o: { id?: string; signature?: string } = {}) {
    const event = { id: o.id ?? newId("evt"), object: "event", type, created: nowS(), livemode: false, data: { object } };
    const payload = JSON.stringify(event);
    const signature = o.signature ?? signer.webhooks.generateTestHeaderString({ payload, secret: opts.webhookSecret });
    const r = await fetch(webhookUrl, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": signature },
      body: payload,
    });
    const body = await r.text();
    sent.push({ event, status: r.status });
    return { status: r.status, body };
  }

  function invoiceFor(sub: Obj, status: "paid" | "open"): Obj {
    const item = ((sub.items as { data: Obj[] }).data[0] ?? {}) as Obj;
    const price = (item.price ?? {}) as Obj;
    const inv: Obj = {
      id: newId("in"),
      object: "invoice",
      customer: sub.customer,
      number: `LOOK-${String(++invoiceNo).padStart(4, "0")}`,
      status,
      currency: price.currency ?? "usd",
      amount_due: price.unit_amount ?? 0,
      amount_paid: status === "paid" ? (price.unit_amount ?? 0) : 0,
      total: price.unit_amount ?? 0,
      created: nowS(),
      hosted_invoice_url: "",
      parent: { type: "subscription_details", subscription_details: { subscription: sub.id } },
    };
    inv.hosted_invoice_url = `${fake.url}/invoice/${inv.id}`;
    invoices.set(inv.id as string, inv);
    return inv;
  }

  async function pay(sessionId: string): Promise<Obj> {
    const s = sessions.get(sessionId);
    if (!s) throw new Error(`no checkout session ${sessionId}`);
    if (s.status === "complete") return subscriptions.get(s.subscription as string) as Obj;
    const line = ((s.line_items as Obj[]) ?? [])[0] ?? {};
    const pd = (line.price_data ?? {}) as Obj;
    const interval = ((pd.recurring ?? {}) as Obj).interval === "year" ? "year" : "month";
    const start = nowS();
    const sub: Obj = {
      id: newId("sub"),
      object: "subscription",
      customer: s.customer,
      status: "active",
      billing_cycle_anchor: start,
      cancel_at_period_end: false,
      metadata: ((s.subscription_data ?? {}) as Obj).metadata ?? {},
      items: {
        object: "list",
        data: [
          {
            id: newId("si"),
            object: "subscription_item",
            current_period_start: start,
            current_period_end: addMonths(start, interval === "year" ? 12 : 1),
            price: {
              id: newId("price"),
              object: "price",
              currency: pd.currency ?? "usd",
              unit_amount: Number(pd.unit_amount ?? 0),
              recurring: { interval },
            },
          },
        ],
      },
    };
    subscriptions.set(sub.id as string, sub);
    Object.assign(s, { status: "complete", subscription: sub.id });
    const inv = invoiceFor(sub, "paid");
    await send("checkout.session.completed", s);
    await send("customer.subscription.created", sub);
    await send("invoice.paid", inv);
    return sub;
  }

  async function cancel(subId: string): Promise<Obj | undefined> {
    const sub = subscriptions.get(subId);
    if (!sub) return undefined;
    Object.assign(sub, { status: "canceled", canceled_at: nowS() });
    await send("customer.subscription.deleted", sub);
    return sub;
  }

  const liveSubOf = (customerId: string) =>
    [...subscriptions.values()].find((x) => x.customer === customerId && x.status !== "canceled");

  function json(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  }
  function html(res: ServerResponse, body: string) {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Stripe (test)</title></head><body>${body}</body></html>`,
    );
  }
  const missing = (res: ServerResponse, what: string) =>
    json(res, 404, { error: { type: "invalid_request_error", code: "resource_missing", message: `No such ${what}` } });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const form = parseStripeForm(Buffer.concat(chunks).toString("utf8"));
    const url = new URL(req.url ?? "/", fake.url);
    const parts = url.pathname.split("/").filter(Boolean);
    // Ids are prefix_<24 hex> (newId): the segment that is one is the route's :id.
    const isId = (p: string) => /_[0-9a-f]{24}$/.test(p);
    const route = `${req.method} /${parts.map((p) => (isId(p) ? ":id" : p)).join("/")}`;
    const id = parts.find(isId) ?? "";
    if (parts[0] === "v1" && !/^Bearer sk_/.test(req.headers.authorization ?? "")) {
      return json(res, 401, { error: { type: "invalid_request_error", message: "Invalid API Key provided" } });
    }
    switch (route) {
      case "POST /v1/customers": {
        const c = {
          id: newId("cus"),
          object: "customer",
          email: form.email ?? null,
          name: form.name ?? null,
          metadata: form.metadata ?? {},
        };
        customers.set(c.id, c);
        return json(res, 200, c);
      }
      case "POST /v1/checkout/sessions": {
        if (!customers.has(String(form.customer))) return missing(res, `customer: '${String(form.customer)}'`);
        if (form.mode !== "subscription" || !form.success_url) {
          return json(res, 400, {
            error: { type: "invalid_request_error", message: "mode subscription and success_url are required" },
          });
        }
        const s: Obj = { ...form, id: newId("cs_test"), object: "checkout.session", status: "open", subscription: null };
        s.url = `${fake.url}/checkout/${s.id}`;
        sessions.set(s.id as string, s);
        return json(res, 200, s);
      }
      case "POST /v1/billing_portal/sessions": {
        if (!customers.has(String(form.customer))) return missing(res, `customer: '${String(form.customer)}'`);
        const p: Obj = {
          id: newId("bps"),
          object: "billing_portal.session",
          customer: form.customer,
          return_url: form.return_url,
        };
        p.url = `${fake.url}/portal/${p.id}`;
        portals.set(p.id as string, p);
        return json(res, 200, p);
      }
      case "DELETE /v1/subscriptions/:id": {
        const sub = await cancel(id);
        return sub ? json(res, 200, sub) : missing(res, `subscription: '${id}'`);
      }
      case "GET /checkout/:id": {
        const s = sessions.get(id);
        if (!s) return missing(res, "checkout session");
        const pd = (((s.line_items as Obj[]) ?? [])[0]?.price_data ?? {}) as Obj;
        const name = String(((pd.product_data ?? {}) as Obj).name ?? "");
        const price = `${(Number(pd.unit_amount ?? 0) / 100).toFixed(2)} ${String(pd.currency ?? "").toUpperCase()} / ${String(((pd.recurring ?? {}) as Obj).interval ?? "")}`;
        return html(
          res,
          `<main><h1>Pay ${esc(name)}</h1><p>${esc(price)}</p><form method="post" action="/checkout/${esc(id)}/pay"><button id="pay" type="submit">Pay</button></form>` +
            `<p><a id="back" href="${esc(String(s.cancel_url ?? ""))}">Back</a></p></main>`,
        );
      }
      case "POST /checkout/:id/pay": {
        if (!sessions.has(id)) return missing(res, "checkout session");
        await pay(id);
        res.writeHead(303, { location: String(sessions.get(id)?.success_url) });
        return res.end();
      }
      case "GET /portal/:id": {
        const p = portals.get(id);
        if (!p) return missing(res, "portal session");
        const sub = liveSubOf(String(p.customer));
        const list = [...invoices.values()]
          .filter((i) => i.customer === p.customer)
          .map((i) => `<li>${esc(String(i.number))}: ${esc(String(i.status))}</li>`)
          .join("");
        return html(
          res,
          `<main><h1>Billing portal</h1><ul>${list}</ul>` +
            (sub
              ? `<form method="post" action="/portal/${esc(id)}/cancel"><button id="cancel" type="submit">Cancel subscription</button></form>`
              : "") +
            `<p><a id="return" href="${esc(String(p.return_url ?? ""))}">Return</a></p></main>`,
        );
      }
      case "POST /portal/:id/cancel": {
        const p = portals.get(id);
        if (!p) return missing(res, "portal session");
        const sub = liveSubOf(String(p.customer));
        if (sub) await cancel(sub.id as string);
        res.writeHead(303, { location: String(p.return_url) });
        return res.end();
      }
      case "GET /invoice/:id": {
        const inv = invoices.get(id);
        return inv
          ? html(res, `<main><h1>Invoice ${esc(String(inv.number))}</h1><p>${esc(String(inv.status))}</p></main>`)
          : missing(res, "invoice");
      }
      default:
        return json(res, 404, {
          error: { type: "invalid_request_error", message: `Unrecognized request URL (${req.method}: ${url.pathname})` },
        });
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => json(res, 500, { error: { type: "api_error", message: String(err) } }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  const fake: FakeStripe = {
    url: `http://127.0.0.1:${port}`,
    setWebhookUrl: (u) => {
      webhookUrl = u;
    },
    customers,
    subscriptions,
    invoices,
    sessions,
    sent,
    pay,
    send,
    async failPayment(customerId) {
      const sub = liveSubOf(customerId);
      if (!sub) throw new Error(`no live subscription of ${customerId}`);
      Object.assign(sub, { status: "past_due" });
      const inv = invoiceFor(sub, "open");
      await send("invoice.payment_failed", inv);
      await send("customer.subscription.updated", sub);
      return inv;
    },
    async payRenewal(customerId) {
      const sub = liveSubOf(customerId);
      if (!sub) throw new Error(`no live subscription of ${customerId}`);
      Object.assign(sub, { status: "active" });
      const inv = invoiceFor(sub, "paid");
      await send("invoice.paid", inv);
      await send("customer.subscription.updated", sub);
      return inv;
    },
    stop: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  return fake;
}
