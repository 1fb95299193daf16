/**
 * Anki section: AnkiConnect requests and wall time of anki.add_from_model for 1, 20 and 100 notes
 * (half with an image) at 50 ms injected latency per AnkiConnect request, against the Worker under
 * wrangler dev; then photon (WASM, as the Worker uses it) vs sharp resizing a 3000×2000 photo to
 * 768 px + JPEG 85, run in Node.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { PhotonImage, SamplingFilter, resize } from "@cf-wasm/photon/node";
import sharp from "sharp";
import { gradient } from "../test/fakes/images";
import { type BenchSection, percentile, table } from "./harness";

const LATENCY_MS = 50;
const ROUNDS = 3;

function items(n: number, image: (i: number) => Record<string, unknown>, tag: string) {
  return Array.from({ length: n }, (_, i) => ({
    Prompt: `${tag} question ${i}`,
    Response: `answer ${i}`,
    dedup_key: `${tag}-${i}`,
    images: i % 2 === 0 ? [{ ...image(i), target_field: "Response" }] : [],
  }));
}

async function addRun(client: Client, n: number, image: (i: number) => Record<string, unknown>) {
  const tag = `bench-${crypto.randomUUID().slice(0, 8)}`;
  const t = performance.now();
  const res = await client.callTool(
    { name: "anki.add_from_model", arguments: { deck: "Bench", items: items(n, image, tag) } },
    undefined,
    { timeout: 300_000 },
  );
  const ms = performance.now() - t;
  const added = (res.structuredContent as { added?: number } | undefined)?.added;
  if (added !== n) {
    const failed = (res.structuredContent as { details?: { status: string }[] } | undefined)?.details?.filter(
      (d) => d.status !== "ok",
    );
    throw new Error(
      `expected ${n} notes added, got ${String(added)}: ${JSON.stringify(failed ?? res.content).slice(0, 600)}`,
    );
  }
  return ms;
}

/** Median of 5 timed runs, ms. */
async function time(fn: () => unknown): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await fn();
    runs.push(performance.now() - t);
  }
  return percentile(
    runs.toSorted((a, b) => a - b),
    50,
  );
}

async function photonVsSharp() {
  // A photo-like 3000×2000 JPEG: gradient plus noise, so the codec has real detail to chew on.
  const w = 3000;
  const h = 2000;
  const px = Buffer.alloc(w * h * 3);
  for (let i = 0; i < px.length; i++) px[i] = ((i * 2654435761) >>> 24) ^ (i % 251);
  const photo = await sharp(px, { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
  const photon = (filter: SamplingFilter) => {
    const img = PhotonImage.new_from_byteslice(photo);
    const out = resize(img, 768, 512, filter);
    const bytes = out.get_bytes_jpeg(85);
    out.free();
    img.free();
    return bytes.length;
  };
  const viaSharp = () => sharp(photo).resize(768, 768, { fit: "inside" }).jpeg({ quality: 85 }).toBuffer();
  // Cheaper downscaling idea for shared/images: nearest-neighbour to 2× the target, then Triangle.
  const twoStep = () => {
    const img = PhotonImage.new_from_byteslice(photo);
    const mid = resize(img, 1536, 1024, SamplingFilter.Nearest);
    const out = resize(mid, 768, 512, SamplingFilter.Triangle);
    const bytes = out.get_bytes_jpeg(85);
    out.free();
    mid.free();
    img.free();
    return bytes.length;
  };
  const decodeOnly = () => PhotonImage.new_from_byteslice(photo).free();
  const sharpMs = await time(viaSharp);
  const triangleMs = await time(() => photon(SamplingFilter.Triangle));
  const lanczosMs = await time(() => photon(SamplingFilter.Lanczos3));
  const twoStepMs = await time(twoStep);
  const decodeMs = await time(decodeOnly);
  table(`Resize ${w}×${h} JPEG (${(photo.length / 1e6).toFixed(1)} MB) to 768 px + JPEG 85, median of 5 (Node)`, [
    { engine: "sharp (libvips)", ms: sharpMs, ratio_vs_sharp: 1 },
    { engine: "photon WASM, Triangle (what the Worker uses)", ms: triangleMs, ratio_vs_sharp: triangleMs / sharpMs },
    { engine: "photon WASM, Lanczos3", ms: lanczosMs, ratio_vs_sharp: lanczosMs / sharpMs },
    { engine: "photon WASM, Nearest to 2× then Triangle", ms: twoStepMs, ratio_vs_sharp: twoStepMs / sharpMs },
    { engine: "photon WASM, decode only", ms: decodeMs, ratio_vs_sharp: decodeMs / sharpMs },
  ]);
}

const section: BenchSection = {
  name: "anki",
  async run(stack) {
    const client = await stack.client("/anki/mcp");
    const small = (await gradient(320, 240, "jpeg")).toString("base64");
    const imagesUrl = stack.fakes.images?.url ?? "";
    const variants: [string, number, (i: number) => Record<string, unknown>][] = [
      ["base64 320×240 (no resize)", 1, () => ({ image_base64: small })],
      ["base64 320×240 (no resize)", 20, () => ({ image_base64: small })],
      ["base64 320×240 (no resize)", 100, () => ({ image_base64: small })],
      ["image_url 1600×1200 (resized)", 20, (i) => ({ image_url: `${imagesUrl}/photo.jpg?w=1600&h=1200&i=${i}` })],
    ];
    const rows: Record<string, unknown>[] = [];
    for (const [kind, n, image] of variants) {
      const times: number[] = [];
      let requests = 0;
      for (let r = 0; r < ROUNDS; r++) {
        await stack.control("anki", null);
        await stack.control("anki", { latencyMs: LATENCY_MS });
        times.push(await addRun(client, n, image));
        requests = await stack.requests("anki");
      }
      const images = Math.ceil(n / 2);
      times.sort((a, b) => a - b); // own array
      rows.push({
        notes: n,
        images,
        image_source: kind,
        anki_requests: requests,
        naive_requests_n_plus_m: n + images,
        wall_ms_p50: percentile(times, 50),
        floor_ms: requests * LATENCY_MS,
      });
    }
    await stack.control("anki", null);
    table(`anki.add_from_model at ${LATENCY_MS} ms per AnkiConnect request (median of ${ROUNDS})`, rows);
    await photonVsSharp();
  },
};

export default section;
