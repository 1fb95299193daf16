/**
 * @module data:image/...;base64 values inside note fields (any letter case, bare or inside an
 * <img src="data:...">): decoded, named img_<sha1>.<ext>, queued for storeMediaFile, taken out of
 * the text, and shown by the seed's unified <img> HTML at the end of the field.
 */
import { Base64Error, ensureImgTag, extFromMime, fromBase64, sha1Hex, sniffImage, toBase64 } from "../../shared/images";
import { ImageError } from "./media-fetch";
import type { MediaFile } from "./media";

/** An <img> whose src is a data URL; `quote` is the number of its quote group (for the backreference). */
const imgTag = (quote: number) =>
  String.raw`<img\b[^>]*?\bsrc\s*=\s*(["']?)\s*(data:image\/[a-z0-9.+-]+;base64,[a-z0-9+/=_\s-]+?)\s*` +
  `\\${quote}(?=[\\s/>])[^>]*>`;
/**
 * Such an <img>, with the <div> around it when the div holds nothing else (the unified HTML's
 * shape); an <img> inside a div with other text leaves that div whole.
 */
const IMG_TAG_RE = new RegExp(String.raw`<div>\s*${imgTag(1)}\s*<\/div>|${imgTag(3)}`, "gi");
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

/**
 * Take every image data URL out of one field value and append each image once, after a blank
 * line. Returns the new value and the files to store; the same bytes twice give one file.
 * @throws ImageError for a data URL that is not valid base64, not an image, or too big.
 */
export async function extractDataUrls(
  value: string,
  maxBytes: number,
  where: string,
): Promise<{ value: string; media: MediaFile[] }> {
  if (!/data:image\//i.test(value)) return { value, media: [] };
  // Decoding starts in text order, so the images are appended in the order they appeared.
  const pending: Promise<MediaFile>[] = [];
  const take = (dataUrl: string) => {
    pending.push(decode(dataUrl, maxBytes, where));
    return "";
  };
  // <img src="data:..."> tags first (their src is a data URL too), then bare data URLs.
  let text = value.replace(IMG_TAG_RE, (_m: string, _q1: string, url1?: string, _q3?: string, url3?: string) =>
    take(url1 ?? url3 ?? ""),
  );
  text = text.replace(BARE_RE, (m) => take(m));
  const files = await Promise.all(pending);
  text = text.replace(/[ \t]+$/gm, "").trim();
  for (const f of files) text = ensureImgTag(text, f.filename);
  const unique = new Map(files.map((f) => [f.filename, f]));
  return { value: text, media: [...unique.values()] };
}
