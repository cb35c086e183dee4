// Every string an input schema accepts is a storable one (packages/schema strings.ts): walks the
// params, query and body schemas of every route in the app's route table, the socket's client
// messages and the insight actors' selectors, and gives each string field a value with a NUL in it (of a length the field allows).
// A field that takes it is a bare z.string() that should be text() or an id type; the failure
// names the route and the field. Answers are outputs and are not walked.
import { ClientSocketMessageSchema, INSIGHT_ACTOR_SELECTORS } from "@lookout/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestApp, type TestApp } from "../test-support.js";

/** The paths of the string fields under `schema` that accept a NUL. */
function storableGaps(schema: unknown, path: string, out: string[], seen = new Set<unknown>()): void {
  if (!(schema instanceof z.ZodType) || seen.has(schema)) return;
  seen.add(schema);
  const walk = (s: unknown, p: string) => storableGaps(s, p, out, seen);
  if (schema instanceof z.ZodString) {
    const min = Math.max(schema.minLength ?? 0, 2);
    const probe = `a\u0000${"a".repeat(min - 2)}`;
    if ((schema.maxLength ?? Number.POSITIVE_INFINITY) >= probe.length && schema.safeParse(probe).success) out.push(path);
  } else if (schema instanceof z.ZodObject) {
    for (const [k, v] of Object.entries(schema.shape)) walk(v, `${path}.${k}`);
  } else if (schema instanceof z.ZodArray) {
    walk(schema.element, `${path}[]`);
  } else if (schema instanceof z.ZodRecord) {
    walk(schema.keyType, `${path}{key}`);
    walk(schema.valueType, `${path}{}`);
  } else if (schema instanceof z.ZodTuple) {
    for (const [i, item] of schema.def.items.entries()) walk(item, `${path}[${i}]`);
  } else if (schema instanceof z.ZodDiscriminatedUnion || schema instanceof z.ZodUnion) {
    for (const o of schema.options) walk(o, path);
  } else if (schema instanceof z.ZodIntersection) {
    walk(schema.def.left, path);
    walk(schema.def.right, path);
  } else if (schema instanceof z.ZodPipe) {
    walk(schema.in, path);
  } else if (
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodNullable ||
    schema instanceof z.ZodDefault ||
    schema instanceof z.ZodCatch
  ) {
    walk(schema.unwrap(), path);
  } else if (schema instanceof z.ZodLazy) {
    walk(schema.def.getter(), path);
  }
}

describe("input schemas", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp("pglite");
  });
  afterAll(async () => {
    await t?.close();
  });

  it("take no string a store cannot hold, in any route's params, query or body, nor in socket messages", () => {
    const gaps: string[] = [];
    for (const route of t.app.routeTable) {
      for (const part of ["params", "query", "body"] as const) {
        storableGaps(route.schemas?.[part], `${route.method} ${route.url} ${part}`, gaps);
      }
    }
    storableGaps(ClientSocketMessageSchema, "socket message", gaps);
    // The insights actors call's `at`, parsed by its kind's selector in the service.
    for (const [kind, selector] of Object.entries(INSIGHT_ACTOR_SELECTORS)) storableGaps(selector, `actors at (${kind})`, gaps);
    expect(gaps).toEqual([]);
  });
});
