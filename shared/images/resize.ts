/**
 * @module Downscale + re-encode with photon (WASM). Images already within the limit are returned
 * untouched without decoding (their size is read from the header), because decoding is the cost.
 */
import { PhotonImage, SamplingFilter, resize } from "@cf-wasm/photon/workerd";
import { sniffImage } from "./sniff";

export interface FitOptions {
  /** Longest side allowed, in pixels. */
  maxSide: number;
  /** JPEG quality for re-encoded images (default 85, as the seed). */
  quality?: number;
}

export interface FitResult {
  bytes: Uint8Array;
  mime: string;
  width?: number;
  height?: number;
  /** True when the image was decoded, resized and re-encoded as JPEG. */
  resized: boolean;
}

/** Thrown when the bytes are not an image photon can decode. */
export class ImageDecodeError extends Error {
  override readonly name = "ImageDecodeError";
}

/** Target size keeping the aspect ratio, longest side = maxSide. */
export function fitWithin(width: number, height: number, maxSide: number): { width: number; height: number } {
  const scale = maxSide / Math.max(width, height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * Make sure the long side is at most `maxSide`: small images pass through as they are; larger
 * ones are decoded, resized (Triangle filter: near-Lanczos quality for downscaling at a fraction
 * of the cost) and re-encoded as JPEG at `quality`.
 * @throws ImageDecodeError when a too-large (or unknown) image cannot be decoded.
 */
export function fitImage(bytes: Uint8Array, opts: FitOptions): FitResult {
  const info = sniffImage(bytes);
  if (info?.width && info.height && Math.max(info.width, info.height) <= opts.maxSide) {
    return { bytes, mime: info.mime, width: info.width, height: info.height, resized: false };
  }
  let img: PhotonImage;
  try {
    img = PhotonImage.new_from_byteslice(bytes);
  } catch (err) {
    throw new ImageDecodeError(`image could not be decoded (${info?.mime ?? "unknown format"})`, { cause: err });
  }
  try {
    const w = img.get_width();
    const h = img.get_height();
    if (Math.max(w, h) <= opts.maxSide) {
      return { bytes, mime: info?.mime ?? "application/octet-stream", width: w, height: h, resized: false };
    }
    const size = fitWithin(w, h, opts.maxSide);
    const out = resize(img, size.width, size.height, SamplingFilter.Triangle);
    try {
      return { bytes: out.get_bytes_jpeg(opts.quality ?? 85), mime: "image/jpeg", ...size, resized: true };
    } finally {
      out.free();
    }
  } finally {
    img.free();
  }
}
