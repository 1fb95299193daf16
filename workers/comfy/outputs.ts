/**
 * @module Copies a finished job's output images from ComfyUI (/view) into R2, with a small preview
 * of each (photon), so results outlive the ComfyUI machine and can be inlined under 1 MiB.
 * Keys are derived from the job and node, so a redelivered message rewrites the same objects.
 */
import { fitImage, sniffImage } from "../../shared/images";
import type { ComfyClient, FileRef, HistoryEntry } from "./client";
import type { JobOutput } from "./job";

/** Longest preview side, and the size above which a preview is shrunk further. */
const PREVIEW_SIDE = 768;
const PREVIEW_MAX_BYTES = 300 * 1024;

/** Every file the history entry lists under `images` or `gifs`, in node order. */
export function outputFiles(entry: HistoryEntry): { nodeId: string; ref: FileRef }[] {
  const out: { nodeId: string; ref: FileRef }[] = [];
  for (const [nodeId, ui] of Object.entries(entry.outputs ?? {})) {
    for (const ref of [...(ui.images ?? []), ...(ui.gifs ?? [])]) {
      if (ref && typeof ref.filename === "string") out.push({ nodeId, ref });
    }
  }
  return out;
}

/** A preview of at most PREVIEW_SIDE px that is also at most PREVIEW_MAX_BYTES (when decodable). */
export function makePreview(bytes: Uint8Array): { bytes: Uint8Array; mime: string } {
  const info = sniffImage(bytes);
  let side = Math.min(PREVIEW_SIDE, Math.max(info?.width ?? PREVIEW_SIDE, info?.height ?? PREVIEW_SIDE));
  let fit = fitImage(bytes, { maxSide: side, quality: 82 });
  for (let i = 0; i < 4 && fit.bytes.length > PREVIEW_MAX_BYTES; i++) {
    side = Math.max(64, Math.floor(side * 0.7));
    fit = fitImage(bytes, { maxSide: side, quality: 80 });
  }
  return { bytes: fit.bytes, mime: fit.mime };
}

function previewOrOriginal(bytes: Uint8Array): { bytes: Uint8Array; mime: string } {
  try {
    return makePreview(bytes);
  } catch {
    // Not decodable by photon: keep the original; results inline it only if it is small enough.
    return { bytes, mime: "" };
  }
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 120) || "file";
}

/** Copy every output of `entry` into R2 under `comfy/{jobId}/`, returning what was stored. */
export async function copyOutputs(
  client: ComfyClient,
  bucket: R2Bucket,
  jobId: string,
  entry: HistoryEntry,
): Promise<JobOutput[]> {
  const files = outputFiles(entry);
  return Promise.all(
    files.map(async ({ nodeId, ref }, i) => {
      const { bytes, contentType } = await client.view(ref);
      const info = sniffImage(bytes);
      const mime = info?.mime ?? contentType.split(";")[0] ?? "application/octet-stream";
      const base = `comfy/${jobId}/${nodeId}-${i}`;
      const key = `${base}-${safeName(ref.filename)}`;
      await bucket.put(key, bytes, { httpMetadata: { contentType: mime } });
      const out: JobOutput = {
        node_id: nodeId,
        filename: ref.filename,
        key,
        preview_key: key,
        mime,
        size: bytes.length,
      };
      if (info?.width && info.height) {
        out.width = info.width;
        out.height = info.height;
        const preview = previewOrOriginal(bytes);
        if (preview.bytes !== bytes) {
          out.preview_key = `${base}-preview.${preview.mime === "image/jpeg" ? "jpg" : "png"}`;
          await bucket.put(out.preview_key, preview.bytes, { httpMetadata: { contentType: preview.mime } });
        }
      }
      return out;
    }),
  );
}
