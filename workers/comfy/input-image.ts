/**
 * @module An image argument (base64, data: URL or http(s) URL) turned into bytes and uploaded to
 * ComfyUI, so its name can go into a LoadImage node.
 */
import { ToolError } from "../../shared/errors";
import { upstreamFetch } from "../../shared/http/client";
import { Base64Error, extFromMime, fromBase64, parseDataUrl, sha1Hex, sniffImage } from "../../shared/images";
import type { ComfyClient } from "./client";

/** Largest input image accepted (ComfyUI's own default upload limit is 100 MB; tunnels are slower). */
export const MAX_INPUT_BYTES = 20 * 1024 * 1024;

async function download(url: string, field: string, fetchFn: typeof fetch): Promise<Uint8Array> {
  const u = new URL(url);
  const res = await upstreamFetch(
    { name: `Image URL (${u.host})`, baseUrl: u.origin, fetch: fetchFn },
    { path: url, timeoutMs: 20_000, retry: { maxAttempts: 2 } },
  );
  const len = Number(res.headers.get("content-length") ?? "0");
  if (len > MAX_INPUT_BYTES) {
    await res.body?.cancel();
    throw new ToolError(`${field}: изображение по ссылке больше ${MAX_INPUT_BYTES / 1024 / 1024} МБ.`);
  }
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (bytes.length > MAX_INPUT_BYTES) {
    throw new ToolError(`${field}: изображение по ссылке больше ${MAX_INPUT_BYTES / 1024 / 1024} МБ.`);
  }
  return bytes;
}

/** Decode or download the image argument; throws ToolError naming the field when it is not an image. */
export async function readImageArg(value: string, field: string, fetchFn: typeof fetch): Promise<Uint8Array> {
  let bytes: Uint8Array;
  if (/^https?:\/\//i.test(value.trim())) {
    bytes = await download(value.trim(), field, fetchFn);
  } else {
    const b64 = parseDataUrl(value)?.base64 ?? value;
    try {
      bytes = fromBase64(b64);
    } catch (err) {
      const why = err instanceof Base64Error ? err.message : "не декодируется";
      throw new ToolError(`${field}: ожидается изображение в base64, data:-URL или ссылка http(s) (${why}).`);
    }
  }
  if (bytes.length > MAX_INPUT_BYTES) {
    throw new ToolError(`${field}: изображение больше ${MAX_INPUT_BYTES / 1024 / 1024} МБ.`);
  }
  if (!sniffImage(bytes)) throw new ToolError(`${field}: это не PNG, JPEG, GIF или WebP.`);
  return bytes;
}

/** Upload the image argument and return the name for LoadImage (content-addressed, so repeats reuse it). */
export async function uploadImageArg(
  client: ComfyClient,
  value: string,
  field: string,
  fetchFn: typeof fetch,
): Promise<string> {
  const bytes = await readImageArg(value, field, fetchFn);
  const mime = sniffImage(bytes)?.mime ?? "image/png";
  const name = `mcp_${(await sha1Hex(bytes)).slice(0, 20)}.${extFromMime(mime)}`;
  return client.upload(bytes, name, mime);
}
