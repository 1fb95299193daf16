/**
 * @module Fake Gemini API (protocols/gemini.md): `POST /v1beta/models/{model}:generateContent`,
 * camelCase answers, snake_case or camelCase requests, Google error bodies. Each API key is its
 * own conversation, so tests running side by side do not mix:
 *
 *   POST /__gemini/script {key, steps: [...], requireSignatures?}  script the next answers for `key`
 *   GET  /__gemini/requests?key=K                                  every request seen for K (camelCase)
 *
 * Steps, one per generateContent request, in order:
 *   {calls: [{name, args}]}          function calls in one model turn (each part with a thoughtSignature)
 *   {text, image?}                   a final answer, with a generated PNG when `image`
 *   {error: "quota" | "unavailable" | "bad-key" | "not-found"}, {blocked: "SAFETY"},
 *   {finishReason: "MALFORMED_FUNCTION_CALL" | "SAFETY"}, {empty: true}, {hang: true}
 * Without a script: image models answer text + image, other models a short text.
 * `requireSignatures` (default true, as Gemini 3) answers 400 when a replayed functionCall part
 * lacks its thoughtSignature.
 */
import type { FakeDefinition, FakeResponse } from "./harness";
import { fakePng } from "./png";

export type GeminiStep =
  | { calls: { name: string; args?: Record<string, unknown>; id?: string }[]; text?: string }
  | { text: string; image?: boolean }
  | { error: "quota" | "unavailable" | "bad-key" | "not-found" }
  | { blocked: string }
  | { finishReason: string }
  | { empty: true }
  | { hang: true };

type Json = Record<string, unknown>;
interface Conversation {
  steps: GeminiStep[];
  pos: number;
  requireSignatures: boolean;
  requests: { model: string; body: Json }[];
}

const conversations = new Map<string, Conversation>();
const PNG_B64 = Buffer.from(fakePng(96, 64)).toString("base64");

function conversation(key: string): Conversation {
  let c = conversations.get(key);
  if (!c) {
    c = { steps: [], pos: 0, requireSignatures: true, requests: [] };
    conversations.set(key, c);
  }
  return c;
}

/** snake_case keys → camelCase, recursively (the API accepts both). */
function camel(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(camel);
  if (!v || typeof v !== "object") return v;
  return Object.fromEntries(
    Object.entries(v as Json).map(([k, x]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), camel(x)]),
  );
}

function googleError(code: number, status: string, message: string, details: Json[] = []): FakeResponse {
  return { status: code, json: { error: { code, message, status, ...(details.length ? { details } : {}) } } };
}

function answer(model: string, parts: Json[], finishReason = "STOP"): FakeResponse {
  return {
    json: {
      candidates: [{ content: { role: "model", parts }, finishReason, index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
      modelVersion: model,
      responseId: `fake-${Date.now()}`,
    },
  };
}

function missingSignature(body: Json): boolean {
  const contents = (body.contents ?? []) as { role?: string; parts?: Json[] }[];
  return contents.some((c) => c.role === "model" && (c.parts ?? []).some((p) => p.functionCall && !p.thoughtSignature));
}

function respond(step: GeminiStep | undefined, model: string, round: number): FakeResponse | Promise<FakeResponse> {
  if (!step) {
    const parts: Json[] = [{ text: `Fake ${model} answer.` }];
    if (/image/.test(model)) parts.push({ inlineData: { mimeType: "image/png", data: PNG_B64 } });
    return answer(model, parts);
  }
  if ("hang" in step) return new Promise(() => undefined);
  if ("calls" in step) {
    const parts: Json[] = step.text ? [{ text: step.text }] : [];
    step.calls.forEach((call, i) =>
      parts.push({
        functionCall: { name: call.name, args: call.args ?? {}, ...(call.id ? { id: call.id } : {}) },
        thoughtSignature: Buffer.from(`sig-${round}-${i}`).toString("base64"),
      }),
    );
    return answer(model, parts);
  }
  if ("error" in step) {
    if (step.error === "quota") {
      return googleError(429, "RESOURCE_EXHAUSTED", "You exceeded your current quota.", [
        { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "23s" },
      ]);
    }
    if (step.error === "bad-key") {
      return googleError(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.", [
        { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID" },
      ]);
    }
    if (step.error === "not-found") {
      return googleError(404, "NOT_FOUND", `models/${model} is not found for API version v1beta.`);
    }
    return googleError(503, "UNAVAILABLE", "The model is overloaded. Please try again later.");
  }
  if ("blocked" in step) return { json: { promptFeedback: { blockReason: step.blocked }, modelVersion: model } };
  if ("finishReason" in step) {
    return { json: { candidates: [{ finishReason: step.finishReason, index: 0 }], modelVersion: model } };
  }
  if ("empty" in step) return { json: { candidates: [], modelVersion: model } };
  const parts: Json[] = [{ text: step.text }];
  if (step.image) parts.push({ inlineData: { mimeType: "image/png", data: PNG_B64 } });
  return answer(model, parts);
}

/** The fake Gemini API. */
export const geminiFake: FakeDefinition = {
  name: "gemini",
  reset() {
    conversations.clear();
  },
  handle(req) {
    if (req.path === "/__gemini/script" && req.method === "POST") {
      const { key, steps, requireSignatures } = JSON.parse(req.body.toString() || "{}") as {
        key?: string;
        steps?: GeminiStep[];
        requireSignatures?: boolean;
      };
      if (!key) return { status: 400, json: { error: "key is required" } };
      conversations.set(key, {
        steps: steps ?? [],
        pos: 0,
        requireSignatures: requireSignatures ?? true,
        requests: [],
      });
      return { json: { ok: true } };
    }
    if (req.path === "/__gemini/requests") {
      return { json: { requests: conversation(req.query.get("key") ?? "").requests } };
    }
    const m = /^\/v1beta\/models\/([^/:]+):generateContent$/.exec(req.path);
    if (!m || req.method !== "POST") return googleError(404, "NOT_FOUND", `No route ${req.method} ${req.path}`);
    const model = decodeURIComponent(m[1] ?? "");
    const key = String(req.headers["x-goog-api-key"] ?? req.query.get("key") ?? "");
    if (!key) return googleError(403, "PERMISSION_DENIED", "Method doesn't allow unregistered callers.");
    let body: Json;
    try {
      body = camel(JSON.parse(req.body.toString())) as Json;
    } catch {
      return googleError(400, "INVALID_ARGUMENT", "Invalid JSON payload received.");
    }
    const conv = conversation(key);
    conv.requests.push({ model, body });
    if (conv.requireSignatures && missingSignature(body)) {
      return googleError(
        400,
        "INVALID_ARGUMENT",
        "Function call is missing a thought_signature in functionCall parts.",
      );
    }
    const step = conv.steps[conv.pos];
    conv.pos++;
    return respond(step, model, conv.pos);
  },
};
