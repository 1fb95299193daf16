/**
 * @module Fake Cloudflare Tunnel + Access in front of AnkiConnect (../shared/protocols/tunnel.md §3):
 * wrong or missing service token → 302 to the Access login page; `originDown` → Cloudflare's 502
 * page; `tunnelDown` → 530 (error 1033); otherwise the request is forwarded to `origin` with
 * Content-Length kept and the Cf-Access-Jwt-Assertion / Cf-Ray headers added.
 *
 * Knobs: origin (URL to forward to, e.g. the anki fake), clientId / clientSecret (the token Access
 * expects; defaults below), originDown, tunnelDown, serviceAuthOnly (a Service-Auth-only app:
 * 403 with Access's block page instead of the login redirect).
 */
import type { FakeDefinition, FakeResponse } from "./harness";

/** The service token the fake Access expects by default (test values, not secrets). */
export const TUNNEL_CLIENT_ID = "88bf3b6d86161464f6509f7219099e57.access";
export const TUNNEL_CLIENT_SECRET = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

let forwarded: Record<string, string>[] = [];

export const tunnelFake: FakeDefinition = {
  name: "tunnel",
  reset() {
    forwarded = [];
  },
  state: () => ({ forwarded: forwarded.slice(-50) }),
  async handle(req): Promise<FakeResponse> {
    const k = req.knobs;
    if (k.tunnelDown) {
      return {
        status: 530,
        headers: { "Content-Type": "text/html" },
        body: "<html><title>Cloudflare Tunnel error | 1033</title></html>",
      };
    }
    const id = req.headers["cf-access-client-id"];
    const secret = req.headers["cf-access-client-secret"];
    if (id !== (k.clientId ?? TUNNEL_CLIENT_ID) || secret !== (k.clientSecret ?? TUNNEL_CLIENT_SECRET)) {
      if (k.serviceAuthOnly) {
        return {
          status: 403,
          headers: { "Content-Type": "text/html" },
          body: "<html><title>Forbidden | Cloudflare Access</title><body>You don't have permission to view this application.</body></html>",
        };
      }
      return {
        status: 302,
        headers: {
          Location:
            "https://example-team.cloudflareaccess.com/cdn-cgi/access/login/anki.example.com?kid=abc&redirect_url=%2F",
          "Content-Type": "text/html",
        },
        body: "<html><body>Sign in with Cloudflare Access</body></html>",
      };
    }
    if (k.originDown || typeof k.origin !== "string") {
      return {
        status: 502,
        headers: { "Content-Type": "text/html" },
        body: "<html><title>502 Bad Gateway | Cloudflare</title></html>",
      };
    }
    const headers: Record<string, string> = {
      "Content-Type": String(req.headers["content-type"] ?? "application/json"),
      "Cf-Access-Jwt-Assertion": "eyJhbGciOiJSUzI1NiJ9.eyJjb21tb25fbmFtZSI6ImZha2UifQ.sig",
      "Cf-Connecting-Ip": "127.0.0.1",
      "Cf-Ray": "8f00000000000000-AMS",
    };
    forwarded.push({
      method: req.method,
      hasAccessHeaders: String(id !== undefined),
      userAgent: String(req.headers["user-agent"] ?? ""),
    });
    const res = await fetch(k.origin, { method: req.method, headers, body: req.body.length ? req.body : undefined });
    return {
      status: res.status,
      headers: { "Content-Type": res.headers.get("content-type") ?? "" },
      body: Buffer.from(await res.arrayBuffer()),
    };
  },
};
