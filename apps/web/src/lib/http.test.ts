// The HTTP client: every method, JSON and form bodies, the XSRF echo, the abort signal, errors.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HttpError, isUnauthorized, request } from "./http";

describe("request", () => {
  let fetch: ReturnType<typeof vi.fn<(url: string, init: RequestInit) => Promise<Response>>>;
  beforeEach(() => {
    fetch = vi.fn(async () => new Response(JSON.stringify({ ok: true }), { status: 200 }));
    vi.stubGlobal("fetch", fetch);
    vi.stubGlobal("localStorage", { getItem: (k: string) => (k === "userToken" ? "tok" : null) });
    vi.stubGlobal("document", { cookie: "XSRF-TOKEN=x1" });
  });
  afterEach(() => vi.unstubAllGlobals());

  it("speaks every method with a JSON body, the bearer token and the XSRF header", async () => {
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"] as const) {
      expect(await request(method, "/api/v1/x", method === "GET" ? {} : { json: { a: 1 } })).toEqual({ ok: true });
      const init = fetch.mock.lastCall?.[1] as RequestInit;
      const headers = init.headers as Headers;
      expect(init.method).toBe(method);
      expect(headers.get("authorization")).toBe("Bearer tok");
      expect(headers.get("x-xsrf-token")).toBe("x1");
      if (method === "GET") {
        expect(init.body).toBeUndefined();
        expect(headers.has("content-type")).toBe(false);
      } else {
        expect(init.body).toBe('{"a":1}');
        expect(headers.get("content-type")).toBe("application/json");
      }
    }
  });

  it("form-encodes a form body and passes the abort signal on", async () => {
    const signal = new AbortController().signal;
    await request("POST", "/static-api/get-properties", { form: { accountId: "a b" }, signal });
    const init = fetch.mock.lastCall?.[1] as RequestInit;
    expect(init.body).toBe("accountId=a+b");
    expect((init.headers as Headers).get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(init.signal).toBe(signal);
  });

  it("reads an empty answer as undefined and a failure as HttpError with the server's message", async () => {
    fetch.mockResolvedValueOnce(new Response(null, { status: 204 }));
    expect(await request("DELETE", "/api/v1/x")).toBeUndefined();
    fetch.mockResolvedValueOnce(new Response(JSON.stringify({ message: "Nope", code: "unauthorized" }), { status: 401 }));
    const err = await request("GET", "/api/v1/x").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ status: 401, serverMessage: "Nope", code: "unauthorized" });
    expect(isUnauthorized(err)).toBe(true);
    expect(isUnauthorized(new HttpError(403, null, null))).toBe(false);
  });
});
