/**
 * @module The images[] pipeline: base64 (priority) or URL → checked, resized with photon when the
 * long side exceeds max_side (JPEG 85), named, and shown in its field with the seed's unified HTML.
 */
import {
  Base64Error,
  ImageDecodeError,
  ensureImgTag,
  fitImage,
  fromBase64,
  parseDataUrl,
  sniffImage,
  toBase64,
} from "../../shared/images";
import { errorMessage } from "../../shared/errors";
import type { Warnings } from "./fields";
import { ImageError, fetchImage } from "./media-fetch";
import type { ImageSpec } from "./schemas";

/** A media file to store with storeMediaFile. */
export interface MediaFile {
  filename: string;
  /** Base64 of the bytes. */
  data: string;
}

/** Limits and I/O for preparing images. */
export interface MediaOptions {
  fetch: typeof fetch;
  fetchTimeoutMs: number;
  maxBytes: number;
  signal?: AbortSignal;
}

/**
 * A file name Anki keeps as is: NFC, without the characters Anki strips ([ ] < > : " / ? * ^ \ |
 * and control characters), so storeMediaFile returns the name we put in the field.
 */
export function safeMediaName(name: string): string {
  const cleaned = [...name.normalize("NFC")]
    .filter((ch) => ch.charCodeAt(0) > 0x1f && ch !== "\u007f" && !'[]<>:"/?*^\\|'.includes(ch))
    .join("")
    .trim();
  return cleaned || `${crypto.randomUUID()}.jpg`;
}

/** True for bytes we can treat as an image: known by their header, or SVG text. */
function looksLikeImage(bytes: Uint8Array, hint: string): boolean {
  if (sniffImage(bytes)) return true;
  if (hint === "image/svg+xml") return /<svg[\s>]/i.test(new TextDecoder().decode(bytes.subarray(0, 2048)));
  return false;
}

/** Decoding more pixels than this could exhaust the Worker's 128 MB (4 bytes per pixel). */
export const MAX_DECODE_PIXELS = 24_000_000;

/**
 * Downscale when needed; bytes photon cannot decode are kept as they are, with a warning.
 * @throws ImageError for an image too large to decode safely (a decompression bomb) or one that fails mid-resize.
 */
export function fitOrKeep(bytes: Uint8Array, maxSide: number, hint: string, w: Warnings, where: string): Uint8Array {
  const info = sniffImage(bytes);
  if (hint === "image/svg+xml" && !info) return bytes;
  if (info?.width && info.height && Math.max(info.width, info.height) > maxSide) {
    if (info.width * info.height > MAX_DECODE_PIXELS) {
      throw new ImageError(
        `${where}: the image is ${info.width}×${info.height} pixels, too large to resize here (at most ${MAX_DECODE_PIXELS / 1_000_000} megapixels); send a smaller one`,
      );
    }
  }
  try {
    return fitImage(bytes, { maxSide, quality: 85 }).bytes;
  } catch (err) {
    if (!(err instanceof ImageDecodeError)) {
      throw new ImageError(`${where}: the image could not be resized (${errorMessage(err)})`);
    }
    w.add("image_not_resized", `${where}: the image could not be decoded to check its size, so it was sent as is`);
    return bytes;
  }
}

async function loadBytes(
  spec: ImageSpec,
  opts: MediaOptions,
  where: string,
): Promise<{ bytes: Uint8Array; hint: string }> {
  if (spec.image_base64 !== undefined) {
    const dataUrl = parseDataUrl(spec.image_base64);
    let bytes: Uint8Array;
    try {
      bytes = fromBase64(dataUrl ? dataUrl.base64 : spec.image_base64);
    } catch (err) {
      if (err instanceof Base64Error) throw new ImageError(`${where}.image_base64: ${err.message}`);
      throw err;
    }
    if (bytes.length > opts.maxBytes) {
      throw new ImageError(`${where}.image_base64 is ${bytes.length} bytes, more than the ${opts.maxBytes}-byte limit`);
    }
    return { bytes, hint: dataUrl?.mime ?? "" };
  }
  const url = spec.image_url ?? spec.url ?? "";
  try {
    const got = await fetchImage(url, {
      fetch: opts.fetch,
      timeoutMs: opts.fetchTimeoutMs,
      maxBytes: opts.maxBytes,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    return { bytes: got.bytes, hint: got.contentType };
  } catch (err) {
    if (err instanceof ImageError) throw new ImageError(`${where}: ${err.message}`);
    throw err;
  }
}

/**
 * Turn one ImageSpec into a media file: load, check it is an image, resize if needed, name it
 * (`filename`, else a UUID + .jpg).
 * @throws ImageError when the image cannot be used (bad base64, not an image, too big, fetch failed).
 */
export async function prepareImage(
  spec: ImageSpec,
  opts: MediaOptions,
  w: Warnings,
  where: string,
): Promise<MediaFile> {
  const { bytes, hint } = await loadBytes(spec, opts, where);
  if (!looksLikeImage(bytes, hint)) {
    // Formats without a header we read (BMP, TIFF…) still get a chance with photon.
    try {
      const fitted = fitImage(bytes, { maxSide: spec.max_side, quality: 85 });
      return { filename: safeMediaName(spec.filename ?? `${crypto.randomUUID()}.jpg`), data: toBase64(fitted.bytes) };
    } catch {
      throw new ImageError(`${where}: the data is not an image (expected JPEG, PNG, GIF or WebP)`);
    }
  }
  const out = fitOrKeep(bytes, spec.max_side, hint, w, where);
  return { filename: safeMediaName(spec.filename ?? `${crypto.randomUUID()}.jpg`), data: toBase64(out) };
}

/** Show `filename` in `fields[target]` with the unified HTML (after a blank line, never twice). */
export function placeImage(fields: Record<string, string>, target: string, filename: string): void {
  fields[target] = ensureImgTag(fields[target] ?? "", filename);
}
