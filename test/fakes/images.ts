/**
 * @module Image host fake for image_url tests: real JPEG/PNG bytes made with sharp, plus the ways a
 * host goes wrong (HTML instead of an image, non-image bytes labelled image/jpeg, a truncated
 * JPEG, too big, slow, redirects, 404).
 *
 *   /photo.jpg?w=3000&h=2000   /photo.png?w=..&h=..   /redirect → /photo.jpg?w=64&h=64
 *   /page.html   /broken.jpg   /truncated.jpg   /huge?bytes=N   /slow.jpg?ms=N
 *   /drop-once.jpg?id=X (connection dropped the first time)   anything else → 404
 */
import sharp from "sharp";
import type { FakeDefinition, FakeResponse } from "./harness";

const cache = new Map<string, Buffer>();
const dropped = new Set<string>();

/** A gradient image (real content, so encoders and decoders do real work). */
export async function gradient(w: number, h: number, format: "jpeg" | "png"): Promise<Buffer> {
  const key = `${w}x${h}.${format}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const px = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 3;
      px[i] = (x * 255) / w;
      px[i + 1] = (y * 255) / h;
      px[i + 2] = ((x + y) * 7) % 256;
    }
  }
  const img = sharp(px, { raw: { width: w, height: h, channels: 3 } });
  const out = format === "jpeg" ? await img.jpeg({ quality: 90 }).toBuffer() : await img.png().toBuffer();
  cache.set(key, out);
  return out;
}

const size = (q: URLSearchParams, k: string, d: number) => Math.min(6000, Math.max(1, Number(q.get(k) ?? d) || d));

export const imagesFake: FakeDefinition = {
  name: "images",
  async handle(req): Promise<FakeResponse> {
    const q = req.query;
    switch (req.path) {
      case "/photo.jpg":
        return {
          headers: { "Content-Type": "image/jpeg" },
          body: await gradient(size(q, "w", 640), size(q, "h", 480), "jpeg"),
        };
      case "/photo.png":
        return {
          headers: { "Content-Type": "image/png" },
          body: await gradient(size(q, "w", 640), size(q, "h", 480), "png"),
        };
      case "/redirect":
        return { status: 302, headers: { Location: "/photo.jpg?w=64&h=64" } };
      case "/page.html":
        return {
          headers: { "Content-Type": "text/html; charset=utf-8" },
          body: "<html><body>Not an image</body></html>",
        };
      case "/broken.jpg":
        return { headers: { "Content-Type": "image/jpeg" }, body: "this is plain text, not JPEG data at all" };
      case "/truncated.jpg": {
        // Header and frame size of a 2000×1500 JPEG, then the data stops: readable size, undecodable.
        const full = await gradient(2000, 1500, "jpeg");
        return { headers: { "Content-Type": "image/jpeg" }, body: full.subarray(0, 700) };
      }
      case "/huge": {
        const body = Buffer.alloc(Number(q.get("bytes") ?? 11 * 1024 * 1024));
        body.set([0xff, 0xd8, 0xff, 0xe0]);
        return { headers: { "Content-Type": "image/jpeg" }, body };
      }
      case "/drop-once.jpg": {
        // Drops the connection on the first request for each ?id, then serves the image.
        const id = q.get("id") ?? "";
        if (!dropped.has(id)) {
          dropped.add(id);
          return { destroy: true };
        }
        return { headers: { "Content-Type": "image/jpeg" }, body: await gradient(48, 48, "jpeg") };
      }
      case "/slow.jpg":
        await new Promise((r) => setTimeout(r, Number(q.get("ms") ?? 3000)));
        return { headers: { "Content-Type": "image/jpeg" }, body: await gradient(32, 32, "jpeg") };
      default:
        return { status: 404, body: "not found" };
    }
  },
};
