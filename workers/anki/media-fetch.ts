/** @module Fetching image_url images: http(s) only, with a timeout, a size cap and a content-type check. */
import { errorMessage } from "../../shared/errors";
import { readAtMost } from "../../shared/http/body";
import { USER_AGENT } from "../../shared/http/client";
import { withRetry } from "../../shared/http/retry";

/** An image could not be used; the message says why (shown per item). */
export class ImageError extends Error {
  override readonly name = "ImageError";
}

export interface FetchedImage {
  bytes: Uint8Array;
  /** Content-Type without parameters, lower case ("" when absent). */
  contentType: string;
}

async function readCapped(res: Response, maxBytes: number, url: string): Promise<Uint8Array> {
  const declared = Number(res.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel();
    throw new ImageError(`image at ${url} is ${declared} bytes, more than the ${maxBytes}-byte limit`);
  }
  return readAtMost(
    res.body,
    maxBytes,
    () => new ImageError(`image at ${url} is more than the ${maxBytes}-byte limit`),
  );
}

/**
 * Download an image. Unlike upstream calls this follows redirects (image hosts and CDNs redirect
 * routinely) and sends no Access headers: these are public URLs, not our tunnels.
 * @throws ImageError with a message naming the URL and the problem.
 */
export async function fetchImage(
  rawUrl: string,
  opts: { fetch: typeof fetch; timeoutMs: number; maxBytes: number; signal?: AbortSignal },
): Promise<FetchedImage> {
  let url: URL;
  try {
    url = new URL(rawUrl.trim());
  } catch {
    throw new ImageError(`image_url "${rawUrl.slice(0, 200)}" is not a valid URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ImageError(`image_url must be an http(s) URL, not ${url.protocol}`);
  }
  const shown = `${url.origin}${url.pathname}`;
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  let res: Response;
  try {
    // A GET is safe to repeat: one more try when the connection dropped (a pooled keep-alive
    // connection the host closed at the same moment), never after a timeout or an HTTP answer.
    res = await withRetry(
      () =>
        opts.fetch(url.toString(), {
          headers: { "User-Agent": USER_AGENT, Accept: "image/*" },
          redirect: "follow",
          signal,
        }),
      { maxAttempts: 2, baseDelayMs: 50, maxDelayMs: 200, signal, shouldRetry: () => !signal.aborted },
    );
  } catch (err) {
    if (timeout.aborted) throw new ImageError(`image at ${shown} did not arrive within ${opts.timeoutMs} ms`);
    throw new ImageError(`image at ${shown} could not be fetched (${errorMessage(err)})`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new ImageError(`image at ${shown} answered HTTP ${res.status}`);
  }
  const contentType = (res.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (contentType && !contentType.startsWith("image/") && contentType !== "application/octet-stream") {
    await res.body?.cancel();
    throw new ImageError(`${shown} is not an image (Content-Type ${contentType})`);
  }
  try {
    return { bytes: await readCapped(res, opts.maxBytes, shown), contentType };
  } catch (err) {
    if (err instanceof ImageError) throw err;
    if (timeout.aborted) throw new ImageError(`image at ${shown} did not arrive within ${opts.timeoutMs} ms`);
    throw new ImageError(`image at ${shown} could not be read (${errorMessage(err)})`);
  }
}
