/** @module Builds one note's final fields and media files: data URLs in fields first, then images[]. */
import type { ToolContext } from "../../shared/tools/context";
import type { PreparedNote } from "./add-pipeline";
import { extractDataUrls } from "./data-urls";
import type { Warnings } from "./fields";
import { type MediaFile, placeImage, prepareImage } from "./media";
import type { ImageSpec } from "./schemas";

/** What a tool hands over for one note: fields, tags, images and the resolved target field of each image. */
export interface NoteParts {
  fields: Record<string, string>;
  tags: string[];
  images: readonly ImageSpec[];
  /** Canonical target field per image, same order as `images`. */
  targets: readonly string[];
}

/**
 * Turn a note's parts into a PreparedNote: every image is loaded, checked, resized and named, and
 * its field gets the unified <img> HTML.
 * @throws ImageError when one of its images cannot be used (the item fails, the others proceed).
 */
export async function buildNote(ctx: ToolContext, parts: NoteParts, w: Warnings, where: string): Promise<PreparedNote> {
  const maxBytes = ctx.config.ANKI_IMAGE_MAX_BYTES;
  const fields: Record<string, string> = {};
  const media: MediaFile[] = [];
  for (const [name, value] of Object.entries(parts.fields)) {
    const out = await extractDataUrls(value, maxBytes, `${where}.fields.${name}`);
    fields[name] = out.value;
    media.push(...out.media);
  }
  const opts = {
    fetch: ctx.fetch,
    fetchTimeoutMs: ctx.config.ANKI_IMAGE_FETCH_TIMEOUT_MS,
    maxBytes,
    signal: ctx.signal,
  };
  const files = await Promise.all(parts.images.map((img, i) => prepareImage(img, opts, w, `${where}.images[${i}]`)));
  files.forEach((file, i) => {
    const target = parts.targets[i];
    if (target === undefined) return;
    media.push(file);
    placeImage(fields, target, file.filename);
  });
  const unique = new Map(media.map((m) => [m.filename, m]));
  return { fields, tags: parts.tags, media: [...unique.values()] };
}
