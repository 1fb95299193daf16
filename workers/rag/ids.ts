/** @module Stable point ids (name-based UUIDs, RFC 4122 version 5 layout over SHA-1) and content hashes. */

const NAMESPACE = "mcp-tools-worker/knowledge";

async function sha1(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-1", new TextEncoder().encode(text)));
}

const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

/**
 * A UUID that depends only on its parts, so re-ingesting the same chunk overwrites its point.
 * @example await stableId("docs/a.md", "Setup", "0") // "5f0c…-5…-[89ab]…"
 */
export async function stableId(...parts: string[]): Promise<string> {
  const b = (await sha1([NAMESPACE, ...parts].join("\u0000"))).slice(0, 16);
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x50;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const h = hex(b);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Short hash of a chunk's text and the model that embedded it (a changed model re-embeds). */
export async function contentHash(...parts: string[]): Promise<string> {
  return hex(await sha1(parts.join("\u0000"))).slice(0, 16);
}
