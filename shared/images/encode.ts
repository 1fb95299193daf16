/** @module Bytes ⇄ base64, data URLs, SHA-1 names and MIME ⇄ extension, for every family that moves images. */

const CHUNK = 0x8000;

/** Standard base64 of bytes (chunked, so large images do not overflow the call stack). */
export function toBase64(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += CHUNK) bin += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(bin);
}

/** Thrown when a base64 string cannot be decoded. */
export class Base64Error extends Error {
  override readonly name = "Base64Error";
}

/**
 * Decode standard or URL-safe base64 (whitespace and missing padding tolerated).
 * @throws Base64Error with a short reason.
 */
export function fromBase64(b64: string): Uint8Array {
  const clean = b64.replace(/\s+/g, "").replace(/-/g, "+").replace(/_/g, "/");
  if (clean.length === 0) throw new Base64Error("empty base64 data");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) throw new Base64Error("base64 data contains invalid characters");
  const padded = clean.length % 4 === 0 ? clean : clean + "=".repeat(4 - (clean.length % 4));
  if (padded.length % 4 !== 0 || clean.length % 4 === 1) throw new Base64Error("base64 data has an invalid length");
  let bin: string;
  try {
    bin = atob(padded);
  } catch {
    throw new Base64Error("base64 data could not be decoded");
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Lower-case hex SHA-1 of bytes (names media files by content). */
export async function sha1Hex(bytes: Uint8Array): Promise<string> {
  const d = await crypto.subtle.digest("SHA-1", bytes);
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const EXT: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/jpg": "jpg",
  "image/png": "png",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/svg+xml": "svg",
  "image/bmp": "bmp",
  "image/avif": "avif",
  "image/tiff": "tif",
  "image/x-icon": "ico",
};

/** File extension for an image MIME type (`jpg` for unknown types, as the seed's ext_from_mime). */
export function extFromMime(mime: string): string {
  return EXT[mime.toLowerCase().split(";")[0]?.trim() ?? ""] ?? "jpg";
}

/** A `data:image/...;base64,...` value, found case-insensitively. */
export interface DataUrl {
  mime: string;
  base64: string;
}

/** Matches image data URLs anywhere in a string, any letter case (`DATA:image/PNG;BASE64,...`). */
export const DATA_URL_RE = /data:(image\/[a-z0-9.+-]+);base64,([a-z0-9+/=_-\s]+)/gi;

/** Parse a whole-string image data URL, or undefined. */
export function parseDataUrl(value: string): DataUrl | undefined {
  const m = /^\s*data:(image\/[a-z0-9.+-]+);base64,([a-z0-9+/=_-\s]+)$/i.exec(value);
  if (!m?.[1] || !m[2]) return undefined;
  return { mime: m[1].toLowerCase(), base64: m[2] };
}
