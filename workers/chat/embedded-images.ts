/**
 * @module Images a tool put inside JSON instead of image blocks: spec 004's literal return shapes
 * ({mimeType, data} and {illustrations: [{card_name, mimeType, data}]}, as text or as
 * structuredContent) and image data: URLs. They are taken out, so Gemini gets them as image parts,
 * and each is replaced by a pointer, so no base64 stays inside the JSON. Only data whose first
 * bytes are a PNG, JPEG, GIF or WebP header counts as an image.
 */
import { fromBase64 } from "../../shared/images/encode";
import { sniffImage } from "../../shared/images/sniff";

/** An image in standard base64. */
export interface EmbeddedImage {
  mimeType: string;
  data: string;
}

const IMAGE_MIME = /^image\/[\w.+-]+$/;
const BASE64 = /^[A-Za-z0-9+/=\r\n]+$/;
const DATA_URL = /^data:(image\/[\w.+-]+);base64,([A-Za-z0-9+/=\r\n]+)$/;

/** Whether base64 `data` starts like an image we know (decodes only its first 48 bytes). */
function looksLikeImage(data: string): boolean {
  try {
    return sniffImage(fromBase64(data.replace(/\s+/g, "").slice(0, 64))) !== undefined;
  } catch {
    return false;
  }
}

/** Collects images once each (by their data) and hands out the pointer that replaces them. */
export class ImageCollector {
  readonly images: EmbeddedImage[] = [];
  readonly #index = new Map<string, number>();
  readonly #label: string;

  /** `label` names the tool call in pointers ("get_card_illustration#1.1"). */
  constructor(label: string) {
    this.#label = label;
  }

  /** Add an image (or find it again); returns its 1-based number. */
  add(mimeType: string, data: string): number {
    const key = data.replace(/\s+/g, "");
    let n = this.#index.get(key);
    if (n === undefined) {
      this.images.push({ mimeType, data: key });
      n = this.images.length;
      this.#index.set(key, n);
    }
    return n;
  }

  /** The text that stands where an image's bytes were (the same words as the response's `images`). */
  pointer(n: number): string {
    return `${this.#label} image ${n} (attached as an image part)`;
  }

  /** A copy of `value` with embedded images taken out and replaced by pointers. */
  strip(value: unknown): unknown {
    if (typeof value === "string") {
      const m = DATA_URL.exec(value);
      return m?.[1] && m[2] && looksLikeImage(m[2]) ? this.pointer(this.add(m[1], m[2])) : value;
    }
    if (Array.isArray(value)) return value.map((v) => this.strip(v));
    if (!value || typeof value !== "object") return value;
    const obj = value as Record<string, unknown>;
    const { mimeType, data } = obj;
    const isImage =
      typeof mimeType === "string" &&
      IMAGE_MIME.test(mimeType) &&
      typeof data === "string" &&
      BASE64.test(data) &&
      looksLikeImage(data);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) {
      out[k] = isImage && k === "data" ? this.pointer(this.add(mimeType, data)) : this.strip(v);
    }
    return out;
  }

  /** A text block with images taken out: JSON texts are parsed, stripped and written back. */
  stripText(text: string): string {
    const t = text.trim();
    if (!(t.startsWith("{") || t.startsWith("[") || t.startsWith("data:image/"))) return text;
    if (t.startsWith("data:")) return this.strip(t) as string;
    let parsed: unknown;
    try {
      parsed = JSON.parse(t);
    } catch {
      return text;
    }
    const stripped = JSON.stringify(this.strip(parsed));
    return stripped === JSON.stringify(parsed) ? text : stripped;
  }
}
