/**
 * @module Binds an MCP session to the bearer token that created it, without storage or an extra
 * hop: the client sees `<raw id>.<tag>` where tag = HMAC-SHA256(token, raw id), and every request
 * is checked and unwrapped before it reaches the session object. Another token, even a valid
 * one, cannot use the session (the MCP spec asks servers to bind sessions to the user).
 */

const encoder = new TextEncoder();
const TAG_HEX = 32;

async function tagOf(token: string, raw: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(token), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(raw)));
  return [...mac.subarray(0, TAG_HEX / 2)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The id to show the client for the session `raw` created with `token`. */
export async function wrapSessionId(raw: string, token: string): Promise<string> {
  return `${raw}.${await tagOf(token, raw)}`;
}

/** The raw session id when `presented` was issued to `token`; undefined otherwise. */
export async function unwrapSessionId(presented: string, token: string): Promise<string | undefined> {
  const dot = presented.lastIndexOf(".");
  if (dot <= 0) return undefined;
  const raw = presented.slice(0, dot);
  const tag = presented.slice(dot + 1);
  const expected = await tagOf(token, raw);
  if (tag.length !== expected.length) return undefined;
  let diff = 0;
  for (let i = 0; i < tag.length; i++) diff |= tag.charCodeAt(i) ^ expected.charCodeAt(i);
  return diff === 0 ? raw : undefined;
}

/** A new legacy-SSE session id, already bound to `token` (agents takes it from ?sessionId=). */
export async function newBoundSseId(token: string): Promise<string> {
  const raw = [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join("");
  return wrapSessionId(raw, token);
}
