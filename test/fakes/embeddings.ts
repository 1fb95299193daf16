/**
 * @module A fake embeddings server: OpenAI-compatible `POST /v1/embeddings` and Gemini
 * `POST /v1beta/models/{model}:embedContent | :batchEmbedContents`. Vectors are deterministic yet
 * meaningful: hashed word and character-trigram counts (Unicode-aware, ё→е), L2-normalised, so
 * texts that share words or word stems get a high cosine. The size is the number at the end of
 * the model name (`fake-embed-128` → 128), else 256. Knob `apiKey` requires that key (OpenAI:
 * Bearer, Gemini: x-goog-api-key).
 */
import type { FakeDefinition, FakeRequest, FakeResponse } from "./harness";

const DEFAULT_DIM = 256;

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Dimension implied by a model name. */
export function dimFor(model: string): number {
  const m = /(\d+)$/.exec(model);
  const n = m ? Number(m[1]) : DEFAULT_DIM;
  return n >= 8 && n <= 4096 ? n : DEFAULT_DIM;
}

/** The fake's embedding of one text (exported so benches and tests can reason about it). */
export function fakeEmbed(text: string, dim = DEFAULT_DIM): number[] {
  const v = Array.from({ length: dim }, () => 0);
  const add = (feature: string, weight: number) => {
    const h = fnv1a(feature);
    v[h % dim] = (v[h % dim] ?? 0) + (h & 0x80000000 ? -weight : weight);
  };
  const words =
    text
      .normalize("NFKC")
      .toLowerCase()
      .replace(/ё/g, "е")
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const w of words) {
    if (w.length < 2) continue;
    add(`w:${w}`, 1);
    const padded = `^${w}$`;
    for (let i = 0; i + 3 <= padded.length; i++) add(`t:${padded.slice(i, i + 3)}`, 0.35);
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return norm ? v.map((x) => x / norm) : v.map((_, i) => (i === 0 ? 1 : 0));
}

function bodyOf(req: FakeRequest): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(req.body.toString("utf8") || "{}");
    return v && typeof v === "object" ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function openai(req: FakeRequest): FakeResponse {
  const key = req.knobs.apiKey;
  if (typeof key === "string" && req.headers.authorization !== `Bearer ${key}`) {
    return {
      status: 401,
      json: {
        error: {
          message: "Incorrect API key provided. You can find your API key in your account settings.",
          type: "invalid_request_error",
          code: "invalid_api_key",
        },
      },
    };
  }
  const body = bodyOf(req);
  const model = typeof body.model === "string" ? body.model : "fake-embed";
  const input = typeof body.input === "string" ? [body.input] : Array.isArray(body.input) ? body.input : undefined;
  if (!input || input.length === 0 || input.some((t) => typeof t !== "string")) {
    return {
      status: 400,
      json: { error: { message: "'input' must be a string or an array of strings", type: "invalid_request_error" } },
    };
  }
  const dim = typeof body.dimensions === "number" ? body.dimensions : dimFor(model);
  return {
    json: {
      object: "list",
      data: (input as string[]).map((t, index) => ({ object: "embedding", index, embedding: fakeEmbed(t, dim) })),
      model,
      usage: { prompt_tokens: input.length, total_tokens: input.length },
    },
  };
}

function gemini(req: FakeRequest, model: string, method: string): FakeResponse {
  const key = req.knobs.apiKey;
  if (typeof key === "string" && req.headers["x-goog-api-key"] !== key) {
    return {
      status: 400,
      json: {
        error: { code: 400, message: "API key not valid. Please pass a valid API key.", status: "INVALID_ARGUMENT" },
      },
    };
  }
  const body = bodyOf(req);
  const one = (r: Record<string, unknown>) => {
    const content = (r.content ?? {}) as { parts?: { text?: string }[] };
    const text = (content.parts ?? []).map((p) => p.text ?? "").join(" ");
    const dim = typeof r.outputDimensionality === "number" ? r.outputDimensionality : dimFor(model);
    return { values: fakeEmbed(text, dim) };
  };
  if (method === "embedContent") return { json: { embedding: one(body) } };
  const requests = Array.isArray(body.requests) ? (body.requests as Record<string, unknown>[]) : [];
  return { json: { embeddings: requests.map(one) } };
}

/** Fake embeddings endpoint (OpenAI-compatible and Gemini shapes). */
export const embeddingsFake: FakeDefinition = {
  name: "embeddings",
  handle(req) {
    if (req.knobs.fault === "error") return { status: 500, json: { error: { message: "fake embedder failure" } } };
    if (req.method === "POST" && req.path === "/v1/embeddings") return openai(req);
    const g = /^\/v1beta\/models\/([^:]+):(embedContent|batchEmbedContents)$/.exec(req.path);
    if (req.method === "POST" && g) return gemini(req, decodeURIComponent(g[1] ?? ""), g[2] ?? "");
    return { status: 404, json: { error: { message: `No route ${req.method} ${req.path}` } } };
  },
};
