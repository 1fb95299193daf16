/**
 * @module Signed, expiring links to files in R2: GET /files/{key}?exp=…&sig=…. The signature
 * (HMAC-SHA256 over key and expiry) is the credential, so a link opens in a browser or an MCP
 * client without the bearer token; it is mounted before the auth middleware for that reason.
 */
import { Hono } from "hono";
import type { Config } from "../../shared/config";
import { loadConfig } from "../../shared/config";
import { HttpError } from "../../shared/errors";

const encoder = new TextEncoder();
const keyCache = new Map<string, Promise<CryptoKey>>();

function secretOf(config: Config): string | undefined {
  if (config.FILES_SIGNING_KEY) return config.FILES_SIGNING_KEY;
  const token = config.MCP_AUTH_TOKEN[0]?.token;
  // Derived, so the token itself never signs anything and a leaked link reveals nothing about it.
  return token ? `derived-from-auth-token:${token}` : undefined;
}

async function hmacKey(config: Config): Promise<CryptoKey> {
  const secret = secretOf(config);
  if (!secret) throw new HttpError(503, "File links are disabled: set FILES_SIGNING_KEY or MCP_AUTH_TOKEN.");
  let key = keyCache.get(secret);
  if (!key) {
    const material = await crypto.subtle.digest("SHA-256", encoder.encode(`mcp-files-v1\n${secret}`));
    key = crypto.subtle.importKey("raw", material, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    keyCache.set(secret, key);
  }
  return key;
}

function b64url(bytes: ArrayBuffer): string {
  let s = "";
  for (const b of new Uint8Array(bytes)) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Decode a 32-byte signature; only the canonical spelling is accepted (no padding-bit variants). */
function fromB64url(s: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]{43}$/.test(s)) return undefined;
  const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "=");
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  return b64url(bytes.buffer) === s ? bytes : undefined;
}

const payload = (key: string, exp: number) => encoder.encode(`${key}\n${exp}`);

/** The public base URL for links: PUBLIC_BASE_URL when set, else the origin the client used. */
export function publicBase(config: Config, fallback: string): string {
  return (config.PUBLIC_BASE_URL ?? fallback).replace(/\/+$/, "");
}

/** A signed link to R2 object `key`, valid for FILES_URL_TTL_SECONDS from `now` (ms). */
export async function signFileUrl(config: Config, base: string, key: string, now = Date.now()): Promise<string> {
  const exp = Math.floor(now / 1000) + config.FILES_URL_TTL_SECONDS;
  const sig = b64url(await crypto.subtle.sign("HMAC", await hmacKey(config), payload(key, exp)));
  const path = key.split("/").map(encodeURIComponent).join("/");
  return `${base}/files/${path}?exp=${exp}&sig=${sig}`;
}

/** Check a link's signature (constant time) and then its expiry. */
export async function verifyFileLink(
  config: Config,
  key: string,
  exp: string | undefined,
  sig: string | undefined,
  now = Date.now(),
): Promise<"ok" | "invalid" | "expired"> {
  const expNum = Number(exp);
  const sigBytes = sig ? fromB64url(sig) : undefined;
  if (!exp || !/^\d{1,12}$/.test(exp) || !sigBytes) return "invalid";
  const ok = await crypto.subtle.verify("HMAC", await hmacKey(config), sigBytes, payload(key, expNum));
  if (!ok) return "invalid";
  return expNum * 1000 < now ? "expired" : "ok";
}

/** GET /files/{key}: serve an R2 object to whoever holds a valid, unexpired link. */
export function filesRoutes(): Hono<{ Bindings: Env }> {
  const app = new Hono<{ Bindings: Env }>();
  app.get("/files/:key{.+}", async (c) => {
    const config = loadConfig(c.env);
    // Hono has already percent-decoded the parameter.
    const key = c.req.param("key");
    const verdict = await verifyFileLink(config, key, c.req.query("exp"), c.req.query("sig"));
    if (verdict === "invalid") throw new HttpError(403, "This file link is invalid or has been altered.");
    if (verdict === "expired") {
      throw new HttpError(410, "This file link has expired; ask for a fresh one (comfy.job_status).");
    }
    const obj = await c.env.FILES.get(key);
    if (!obj) throw new HttpError(404, "This file no longer exists.");
    const headers = new Headers();
    obj.writeHttpMetadata(headers);
    headers.set("ETag", obj.httpEtag);
    headers.set("Cache-Control", "private, max-age=3600");
    headers.set("X-Content-Type-Options", "nosniff");
    headers.set("Content-Length", String(obj.size));
    return new Response(obj.body, { headers });
  });
  return app;
}
