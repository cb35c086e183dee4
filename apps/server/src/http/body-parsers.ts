// Body parsers beyond Fastify's JSON: form-encoded (the properties call) and text/plain (the
// tracker's sendBeacon JSON, which avoids a CORS preflight).
import type { FastifyInstance } from "fastify";
import { HttpError } from "./errors.js";

export function installBodyParsers(app: FastifyInstance): void {
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.addContentTypeParser("text/plain", { parseAs: "string" }, (_req, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(new HttpError(400, "invalid_json", "The request body is not valid JSON."), undefined);
    }
  });
}
