/**
 * @module data:image/...;base64 values inside note fields (any letter case, bare or inside an
 * <img src="data:...">): decoded, named img_<sha1>.<ext>, queued for storeMediaFile, and replaced
 * by the seed's unified <img> HTML.
 */
import {
  Base64Error,
  ensureImgTag,
  extFromMime,
  fromBase64,
  imgHtml,
  sha1Hex,
  sniffImage,
  toBase64,
} from "../../shared/images";
import { ImageError } from "./media-fetch";
import type { MediaFile } from "./media";

const IMG_TAG_RE =
  /<img\b[^>]*?\bsrc\s*=\s*(["']?)\s*(data:image\/[a-z0-9.+-]+;base64,[a-z0-9+/=_\s-]+?)\s*\1(?=[\s/>])[^>]*>/gi;
const BARE_RE = /data:(image\/[a-z0-9.+-]+);base64,([a-z0-9+/=_-]+)/gi;
const ONE_RE = /^data:(image\/[a-z0-9.+-]+);base64,([\s\S]+)$/i;

async function decode(dataUrl: string, maxBytes: number, where: string): Promise<MediaFile> {
  const m = ONE_RE.exec(dataUrl.trim());
  if (!m?.[1] || !m[2]) throw new ImageError(`${where}: malformed data URL`);
  const mime = m[1].toLowerCase();
  let bytes: Uint8Array;
  try {
    bytes = fromBase64(m[2]);
  } catch (err) {
    if (err instanceof Base64Error)
      throw new ImageError(`${where}: the data:${mime} URL is not valid base64 (${err.message})`);
    throw err;
  }
  if (bytes.length > maxBytes) {
    throw new ImageError(
      `${where}: the data:${mime} image is ${bytes.length} bytes, more than the ${maxBytes}-byte limit`,
    );
  }
  if (!sniffImage(bytes) && mime !== "image/svg+xml") {
    throw new ImageError(`${where}: the data:${mime} URL does not contain an image`);
  }
  return { filename: `img_${await sha1Hex(bytes)}.${extFromMime(mime)}`, data: toBase64(bytes) };
}

async function replaceAsync(text: string, re: RegExp, fn: (match: string, groups: string[]) => Promise<string>) {
  const parts: (string | Promise<string>)[] = [];
  let last = 0;
  for (const m of text.matchAll(re)) {
    parts.push(text.slice(last, m.index), fn(m[0], m.slice(1)));
    last = m.index + m[0].length;
  }
  parts.push(text.slice(last));
  return (await Promise.all(parts)).join("");
}

/**
 * Replace every image data URL of one field value. Returns the new value and the files to store;
 * the same bytes twice give one file and one <img>.
 * @throws ImageError for a data URL that is not valid base64, not an image, or too big.
 */
export async function extractDataUrls(
  value: string,
  maxBytes: number,
  where: string,
): Promise<{ value: string; media: MediaFile[] }> {
  if (!/data:image\//i.test(value)) return { value, media: [] };
  const media = new Map<string, MediaFile>();
  const placed = new Set<string>();
  // 1. Existing <img src="data:..."> tags become the unified HTML in place.
  let text = await replaceAsync(value, IMG_TAG_RE, async (_m, g) => {
    const file = await decode(g[1] ?? "", maxBytes, where);
    media.set(file.filename, file);
    if (placed.has(file.filename)) return "";
    placed.add(file.filename);
    return imgHtml(file.filename);
  });
  // 2. Bare data URLs are taken out of the text; their images are appended after it.
  const bare: MediaFile[] = [];
  text = await replaceAsync(text, BARE_RE, async (m) => {
    const file = await decode(m, maxBytes, where);
    media.set(file.filename, file);
    bare.push(file);
    return "";
  });
  if (bare.length > 0) {
    text = text.replace(/[ \t]+$/gm, "").trim();
    for (const f of bare) text = ensureImgTag(text, f.filename);
  }
  return { value: text, media: [...media.values()] };
}
