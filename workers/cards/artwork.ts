/**
 * @module The artwork cache in R2. Each cropped artwork is downloaded from YGOPRODeck once and
 * kept as `cards/art/{imageId}/original`; the resized JPEG for the current size and quality is
 * kept beside it (`…/{side}q{quality}.jpg`), so changing CARD_IMAGE_MAX_SIDE never re-downloads.
 * Concurrent requests for the same artwork in one isolate share one download.
 */
import { ToolError, UpstreamError } from "../../shared/errors";
import { fitImage, sniffImage } from "../../shared/images/index";
import type { ToolContext } from "../../shared/tools/context";
import { type Card, type CardApi, bucket } from "./client";

/** One artwork ready to send. */
export interface Artwork {
  card: Card;
  imageId: number;
  bytes: Uint8Array;
  mimeType: string;
  width?: number;
  height?: number;
  /** True when nothing was downloaded for this call. */
  cached: boolean;
}

const pending = new Map<string, Promise<Omit<Artwork, "card">>>();

/** R2 keys of an artwork (exported for tests that need a cold cache). */
export function artworkKeys(imageId: number, side: number, quality: number): { original: string; resized: string } {
  return { original: `cards/art/${imageId}/original`, resized: `cards/art/${imageId}/${side}q${quality}.jpg` };
}

/** The main cropped artwork of `card`, from R2 or downloaded once and stored. */
export async function artworkFor(api: CardApi, ctx: ToolContext, card: Card): Promise<Artwork> {
  const image = card.card_images?.[0];
  const url = image?.image_url_cropped;
  if (!image || !url) throw new ToolError(`YGOPRODeck lists no artwork for "${card.name}".`);
  const side = ctx.config.CARD_IMAGE_MAX_SIDE;
  const quality = ctx.config.CARD_IMAGE_QUALITY;
  const keys = artworkKeys(image.id, side, quality);
  let job = pending.get(keys.resized);
  if (!job) {
    job = load(api, ctx, image.id, url, keys, side, quality).finally(() => pending.delete(keys.resized));
    pending.set(keys.resized, job);
  }
  return { card, ...(await job) };
}

async function load(
  api: CardApi,
  ctx: ToolContext,
  imageId: number,
  url: string,
  keys: { original: string; resized: string },
  side: number,
  quality: number,
): Promise<Omit<Artwork, "card">> {
  const r2 = bucket(ctx);
  const hit = await r2.get(keys.resized);
  if (hit) {
    const bytes = new Uint8Array(await hit.arrayBuffer());
    const info = sniffImage(bytes);
    return { imageId, bytes, mimeType: info?.mime ?? "image/jpeg", ...size(info), cached: true };
  }
  let cached = true;
  let original: Uint8Array;
  const stored = await r2.get(keys.original);
  if (stored) {
    original = new Uint8Array(await stored.arrayBuffer());
  } else {
    cached = false;
    original = await api.download(url);
    const info = sniffImage(original);
    if (!info) throw new UpstreamError("YGOPRODeck images", `the artwork at ${url} is not an image`);
    await r2.put(keys.original, original, {
      httpMetadata: { contentType: info.mime },
      customMetadata: { source: url },
    });
  }
  const fit = fitImage(original, { maxSide: side, quality });
  await r2.put(keys.resized, fit.bytes, { httpMetadata: { contentType: fit.mime } });
  return { imageId, bytes: fit.bytes, mimeType: fit.mime, ...size(fit), cached };
}

function size(info: { width?: number; height?: number } | undefined): { width?: number; height?: number } {
  return info?.width && info.height ? { width: info.width, height: info.height } : {};
}

/** Characters of standard base64 for `n` bytes. */
export function base64Length(n: number): number {
  return 4 * Math.ceil(n / 3);
}

/**
 * Shrink the largest artworks until their base64 fits `budget` characters in total: each image
 * over its fair share is re-encoded smaller (area scaled to the share). Not cached: it only
 * happens for large limits or large CARD_IMAGE_MAX_SIDE.
 */
export function fitBudget(arts: Artwork[], budget: number): Artwork[] {
  let out = arts;
  for (let round = 0; round < 4; round++) {
    const total = out.reduce((n, a) => n + base64Length(a.bytes.length), 0);
    if (total <= budget || out.length === 0) return out;
    const share = budget / out.length;
    out = out.map((a) => {
      const len = base64Length(a.bytes.length);
      const long = Math.max(a.width ?? 0, a.height ?? 0);
      if (len <= share || long === 0) return a;
      const maxSide = Math.max(64, Math.floor(long * Math.sqrt(share / len) * 0.9));
      const fit = fitImage(a.bytes, { maxSide, quality: 75 });
      return { ...a, bytes: fit.bytes, mimeType: fit.mime, ...size(fit) };
    });
  }
  return out;
}

/** Base64 characters all images of one result may take: 1 MiB minus room for text and JSON. */
export const IMAGE_BUDGET = 1024 * 1024 - 64 * 1024;
