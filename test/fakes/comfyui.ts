/**
 * @module Fake ComfyUI (protocols/comfyui.md): POST /prompt with real validation (400 node_errors),
 * one prompt at a time like the real worker, /history `{}` until done then outputs + status, /view
 * serving real PNGs (sharp), /upload/image multipart, /queue, /interrupt, /object_info, `/api`
 * prefix. Knobs: `runMs` (run time of prompts submitted from now on, plus up to `runJitterMs`),
 * `parallel` (no queueing),
 * `fault`: "execution_error" | "interrupt", `noise` (large, hard-to-compress PNGs), `noModels`.
 */
import sharp from "sharp";
import type { FakeDefinition, FakeRequest, FakeResponse, Knobs } from "./harness";
import { CLASSES, inputFiles, objectInfo, setModelsPresent, validatePrompt } from "./comfyui-nodes";

type Prompt = Record<string, { class_type: string; inputs: Record<string, unknown> }>;
interface Job {
  id: string;
  number: number;
  prompt: Prompt;
  extra: Record<string, unknown>;
  outputs: string[];
  startAt: number;
  endAt: number;
  fault?: string;
  noise: boolean;
  finished?: boolean;
}

let jobs = new Map<string, Job>();
let history = new Map<string, Record<string, unknown>>();
let files = new Map<string, Buffer>();
let counter = 0;
let number = 0;

const fileKey = (type: string, subfolder: string, name: string) => `${type}/${subfolder}/${name}`;

function tuple(j: Job): unknown[] {
  return [j.number, j.id, j.prompt, j.extra, j.outputs];
}

/** Size of the image a prompt produces: the empty latent's, or the loaded image's. */
async function outputSize(p: Prompt): Promise<{ width: number; height: number; batch: number }> {
  const latent = Object.values(p).find((n) => n.class_type === "EmptyLatentImage");
  if (latent) {
    const i = latent.inputs;
    return { width: Number(i.width), height: Number(i.height), batch: Number(i.batch_size) || 1 };
  }
  const load = Object.values(p).find((n) => n.class_type === "LoadImage");
  const src = load ? files.get(fileKey("input", "", String(load.inputs.image))) : undefined;
  const meta = src ? await sharp(src).metadata() : undefined;
  return { width: meta?.width ?? 512, height: meta?.height ?? 512, batch: 1 };
}

/** A real PNG: a gradient tinted by the seed, or noise when asked (compresses badly, like photos). */
async function png(width: number, height: number, seed: number, noise: boolean): Promise<Buffer> {
  if (noise) {
    return sharp({
      create: { width, height, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 60 } },
    })
      .png()
      .toBuffer();
  }
  const px = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 3;
      px[o] = (x * 255) / width;
      px[o + 1] = (y * 255) / height;
      px[o + 2] = seed % 256;
    }
  }
  return sharp(px, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

async function finish(j: Job): Promise<void> {
  j.finished = true;
  const t0 = j.startAt;
  const messages: unknown[] = [
    ["execution_start", { prompt_id: j.id, timestamp: t0 }],
    ["execution_cached", { nodes: [], prompt_id: j.id, timestamp: t0 + 1 }],
  ];
  const outputs: Record<string, unknown> = {};
  if (j.fault === "execution_error" || j.fault === "interrupt") {
    const [nodeId, node] = Object.entries(j.prompt).find(([, n]) => n.class_type === "KSampler") ?? ["3", undefined];
    const base = { prompt_id: j.id, node_id: nodeId, node_type: node?.class_type ?? "KSampler", executed: [] };
    messages.push(
      j.fault === "interrupt"
        ? ["execution_interrupted", { ...base, timestamp: j.endAt }]
        : [
            "execution_error",
            {
              ...base,
              exception_message: "Allocation on device \n",
              exception_type: "torch.OutOfMemoryError",
              traceback: ['  File "execution.py", line 496, in execute\n'],
              current_inputs: {},
              current_outputs: [],
              timestamp: j.endAt,
            },
          ],
    );
    const status = { status_str: "error", completed: false, messages };
    history.set(j.id, { prompt: tuple(j), outputs, status, meta: {} });
    return;
  }
  const size = await outputSize(j.prompt);
  const meta: Record<string, unknown> = {};
  for (const out of j.outputs) {
    const node = j.prompt[out];
    const temp = node?.class_type === "PreviewImage";
    const prefix = temp ? "ComfyUI_temp_fake" : String(node?.inputs.filename_prefix ?? "ComfyUI");
    const seedNode = Object.values(j.prompt).find((n) => n.class_type === "KSampler");
    const images = [];
    for (let b = 0; b < size.batch; b++) {
      const filename = `${prefix}_${String(++counter).padStart(5, "0")}_.png`;
      const type = temp ? "temp" : "output";
      files.set(
        fileKey(type, "", filename),
        await png(size.width, size.height, Number(seedNode?.inputs.seed ?? 0), j.noise),
      );
      images.push({ filename, subfolder: "", type });
    }
    outputs[out] = { images };
    meta[out] = { node_id: out, display_node: out, parent_node: null, real_node_id: out };
  }
  messages.push(["execution_success", { prompt_id: j.id, timestamp: j.endAt }]);
  history.set(j.id, { prompt: tuple(j), outputs, status: { status_str: "success", completed: true, messages }, meta });
}

/** Finish every job whose time has come. */
async function tick(now = Date.now()): Promise<void> {
  for (const j of jobs.values()) if (!j.finished && j.endAt <= now) await finish(j);
}

function submit(req: FakeRequest): FakeResponse {
  let body: { prompt?: unknown; prompt_id?: unknown; client_id?: unknown };
  try {
    body = JSON.parse(req.body.toString("utf8")) as typeof body;
  } catch {
    return { status: 500, headers: { "Content-Type": "text/plain" }, body: "500 Internal Server Error" };
  }
  const rejected = validatePrompt(body.prompt);
  if (rejected) return { status: 400, json: rejected };
  const prompt = body.prompt as Prompt;
  const id = typeof body.prompt_id === "string" ? body.prompt_id : crypto.randomUUID();
  const knobs: Knobs = req.knobs;
  const now = Date.now();
  const busyUntil = knobs.parallel ? now : Math.max(now, ...[...jobs.values()].map((j) => j.endAt));
  const runMs = Number(knobs.runMs ?? 0) + Math.random() * Number(knobs.runJitterMs ?? 0);
  const job: Job = {
    id,
    number: number++,
    prompt,
    extra: typeof body.client_id === "string" ? { client_id: body.client_id } : {},
    outputs: Object.keys(prompt).filter((k) => CLASSES[prompt[k]?.class_type ?? ""]?.output_node),
    startAt: busyUntil,
    endAt: busyUntil + runMs,
    noise: Boolean(knobs.noise),
  };
  if (typeof knobs.fault === "string") job.fault = knobs.fault;
  jobs.set(id, job);
  return { json: { prompt_id: id, number: job.number, node_errors: {} } };
}

async function upload(req: FakeRequest): Promise<FakeResponse> {
  const ctype = String(req.headers["content-type"] ?? "");
  let form: FormData;
  try {
    form = await new Request("http://fake/upload", {
      method: "POST",
      headers: { "content-type": ctype },
      body: req.body,
    }).formData();
  } catch {
    return { status: 400 };
  }
  const file = form.get("image");
  if (!file || typeof file === "string" || !file.name) return { status: 400 };
  const type = String(form.get("type") ?? "input") || "input";
  const subfolder = String(form.get("subfolder") ?? "");
  if (subfolder.includes("..")) return { status: 400 };
  const bytes = Buffer.from(await file.arrayBuffer());
  const overwrite = ["true", "1"].includes(String(form.get("overwrite") ?? ""));
  let name = file.name;
  const dot = name.lastIndexOf(".");
  // Without overwrite, a different file under the same name is renamed "cat (1).png"; identical content reuses it.
  for (let i = 1; files.has(fileKey(type, subfolder, name)); i++) {
    if (overwrite || files.get(fileKey(type, subfolder, name))?.equals(bytes)) break;
    name = `${file.name.slice(0, dot)} (${i})${file.name.slice(dot)}`;
  }
  files.set(fileKey(type, subfolder, name), bytes);
  if (type === "input") inputFiles.add(subfolder ? `${subfolder}/${name}` : name);
  return { json: { name, subfolder, type } };
}

function view(req: FakeRequest): FakeResponse {
  const filename = req.query.get("filename");
  const type = req.query.get("type") || "output";
  const subfolder = req.query.get("subfolder") ?? "";
  if (filename === null) return { status: 404 };
  if (!filename || filename.startsWith("/") || filename.includes("..") || !["output", "input", "temp"].includes(type))
    return { status: 400 };
  if (subfolder.includes("..")) return { status: 403 };
  const bytes = files.get(fileKey(type, subfolder, filename));
  if (!bytes) return { status: 404 };
  return { body: bytes, headers: { "Content-Type": "image/png", "Content-Disposition": `filename="${filename}"` } };
}

function queue(): FakeResponse {
  const now = Date.now();
  const open = [...jobs.values()].filter((j) => !j.finished && j.endAt > now);
  return {
    json: {
      queue_running: open.filter((j) => j.startAt <= now).map(tuple),
      queue_pending: open.filter((j) => j.startAt > now).map(tuple),
    },
  };
}

/**
 * A lease that lets one test file at a time use this (process-wide) fake, whatever vitest's file
 * parallelism: POST /__lock?owner=X takes it (423 while someone else holds it), DELETE gives it
 * back. Leases expire, so a crashed file cannot block the run. Not part of ComfyUI's API.
 */
let lease: { owner: string; until: number } | undefined;
function lane(req: FakeRequest): FakeResponse {
  const owner = req.query.get("owner") ?? "";
  const now = Date.now();
  if (req.method === "DELETE") {
    if (lease?.owner === owner) lease = undefined;
    return { json: { ok: true } };
  }
  if (lease && lease.until > now && lease.owner !== owner) return { status: 423, json: { ok: false } };
  lease = { owner, until: now + 180_000 };
  return { json: { ok: true } };
}

/** The ComfyUI fake. */
export const comfyuiFake: FakeDefinition = {
  name: "comfyui",
  reset() {
    jobs = new Map();
    history = new Map();
    files = new Map();
    inputFiles.clear();
    inputFiles.add("example.png");
    counter = 0;
    number = 0;
  },
  async handle(req) {
    const path = req.path.replace(/^\/api(?=\/)/, "");
    if (path === "/__lock") return lane(req);
    await tick();
    setModelsPresent(!req.knobs.noModels);
    if (path === "/prompt" && req.method === "POST") return submit(req);
    if (path === "/prompt")
      return {
        json: { exec_info: { queue_remaining: (queue().json as { queue_pending: unknown[] }).queue_pending.length } },
      };
    const h = /^\/history\/(.+)$/.exec(path);
    if (h && req.method === "GET") {
      const id = decodeURIComponent(h[1] ?? "");
      const entry = history.get(id);
      return { json: entry ? { [id]: entry } : {} };
    }
    if (path === "/history" && req.method === "GET") return { json: Object.fromEntries(history) };
    if (path === "/queue" && req.method === "GET") return queue();
    if ((path === "/queue" || path === "/history") && req.method === "POST") {
      const body = JSON.parse(req.body.toString("utf8") || "{}") as { clear?: boolean; delete?: string[] };
      const map = path === "/queue" ? jobs : history;
      if (body.clear)
        for (const [id, j] of map) if (path === "/history" || (j as Job).startAt > Date.now()) map.delete(id);
      for (const id of body.delete ?? []) map.delete(id);
      return { body: "" };
    }
    if (path === "/interrupt" && req.method === "POST") {
      const now = Date.now();
      for (const j of jobs.values())
        if (!j.finished && j.startAt <= now) Object.assign(j, { fault: "interrupt", endAt: now });
      await tick();
      return { body: "" };
    }
    if (path === "/upload/image" && req.method === "POST") return upload(req);
    if (path === "/view") return view(req);
    if (path === "/object_info") return { json: objectInfo() };
    const oi = /^\/object_info\/(.+)$/.exec(path);
    if (oi) return { json: objectInfo(decodeURIComponent(oi[1] ?? "")) };
    return { status: 404, headers: { "Content-Type": "text/plain" }, body: "404: Not Found" };
  },
};
