/**
 * @module Gemini through @google/genai: one `generate` call that returns the first candidate's
 * content, or throws a GeminiError a person can act on (quota, safety block, malformed function
 * call, empty answer, bad key or model, unreachable). GEMINI_BASE_URL points the SDK elsewhere.
 */
import { ApiError, type Content, type GenerateContentConfig, GoogleGenAI } from "@google/genai";
import type { Config } from "../../shared/config";
import { errorMessage } from "../../shared/errors";
import { shownUrl } from "../../shared/http/client";

/** Why a Gemini call failed; `status` is the HTTP status /api/chat answers with. */
export class GeminiError extends Error {
  override readonly name = "GeminiError";
  readonly status: number;
  readonly reason: "config" | "quota" | "safety" | "malformed" | "empty" | "rejected" | "unavailable" | "timeout";
  readonly retryAfterSeconds?: number;
  constructor(status: number, reason: GeminiError["reason"], message: string, retryAfterSeconds?: number) {
    super(message);
    this.status = status;
    this.reason = reason;
    if (retryAfterSeconds !== undefined) this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** One generateContent request. */
export interface GenerateRequest {
  model: string;
  contents: Content[];
  config?: GenerateContentConfig;
}

/** Sends a request and returns the first candidate's content (parts as received, signatures included). */
export type Generate = (req: GenerateRequest) => Promise<Content>;

const BLOCKED = new Set(["SAFETY", "PROHIBITED_CONTENT", "IMAGE_SAFETY", "RECITATION", "BLOCKLIST", "SPII"]);

interface GoogleErrorBody {
  error?: { code?: number; message?: string; status?: string; details?: { retryDelay?: string; reason?: string }[] };
}

/** Map the SDK's ApiError (whose message is the JSON error body) to a GeminiError. */
function fromApiError(err: ApiError, model: string, redact: (s: string) => string): GeminiError {
  let body: GoogleErrorBody = {};
  try {
    body = JSON.parse(err.message) as GoogleErrorBody;
  } catch {
    /* not JSON: keep the status only */
  }
  const status = body.error?.status ?? "";
  const detail = redact(body.error?.message ?? "").slice(0, 300);
  const label = `HTTP ${err.status}${status ? ` ${status}` : ""}`;
  if (err.status === 429 || status === "RESOURCE_EXHAUSTED") {
    const delay = body.error?.details?.find((d) => d.retryDelay)?.retryDelay;
    const secs = delay ? Math.ceil(Number.parseFloat(delay)) : undefined;
    const when = secs !== undefined && Number.isFinite(secs) ? `try again in ${secs} s` : "try again later";
    return new GeminiError(429, "quota", `Gemini quota is exhausted (${label}): ${when}.`, secs);
  }
  if (body.error?.details?.some((d) => d.reason === "API_KEY_INVALID") || err.status === 401 || err.status === 403) {
    return new GeminiError(502, "rejected", `Gemini refused the API key (${label}): check GEMINI_API_KEY.`);
  }
  if (err.status === 404) {
    return new GeminiError(
      502,
      "rejected",
      `Gemini does not know the model "${model}" (${label}): check the model settings.`,
    );
  }
  if (err.status === 503 || err.status === 500) {
    return new GeminiError(503, "unavailable", `Gemini is unavailable (${label}): try again shortly.`);
  }
  return new GeminiError(502, "rejected", `Gemini refused the request (${label})${detail ? `: ${detail}` : "."}`);
}

/** Throw when a response carries no usable content. */
export function checkResponse(res: {
  promptFeedback?: { blockReason?: string };
  candidates?: { content?: Content; finishReason?: string }[];
}): Content {
  const blocked = res.promptFeedback?.blockReason;
  if (blocked) {
    return fail(422, "safety", `Gemini blocked the request (${blocked}); rephrase it and try again.`);
  }
  const candidate = res.candidates?.[0];
  if (!candidate) return fail(502, "empty", "Gemini returned no answer (no candidates); try again.");
  const reason = candidate.finishReason ?? "";
  if (reason === "MALFORMED_FUNCTION_CALL" || reason === "UNEXPECTED_TOOL_CALL") {
    return fail(502, "malformed", `Gemini produced a malformed function call (${reason}); try again or rephrase.`);
  }
  const parts = candidate.content?.parts ?? [];
  if (BLOCKED.has(reason)) {
    return fail(422, "safety", `Gemini stopped the answer (${reason}); rephrase the request and try again.`);
  }
  if (parts.length === 0) {
    return fail(502, "empty", `Gemini returned an empty answer${reason ? ` (${reason})` : ""}; try again.`);
  }
  return { role: "model", ...candidate.content, parts };
}

function fail(status: number, reason: GeminiError["reason"], message: string): never {
  throw new GeminiError(status, reason, message);
}

/**
 * A Generate function for the configured Gemini endpoint.
 * @throws GeminiError 503 (reason "config") when GEMINI_API_KEY is not set.
 */
export function createGenerate(config: Config): Generate {
  const apiKey = config.GEMINI_API_KEY;
  if (!apiKey) {
    throw new GeminiError(503, "config", "The chat is not configured: set GEMINI_API_KEY (see docs/chat.md).");
  }
  const ai = new GoogleGenAI({
    apiKey,
    ...(config.GEMINI_BASE_URL ? { httpOptions: { baseUrl: config.GEMINI_BASE_URL } } : {}),
  });
  const where = config.GEMINI_BASE_URL ? shownUrl(config.GEMINI_BASE_URL) : "generativelanguage.googleapis.com";
  const redact = (s: string) => s.split(apiKey).join("[redacted]");
  return async ({ model, contents, config: genConfig }) => {
    const timeout = AbortSignal.timeout(config.GEMINI_TIMEOUT_MS);
    let res;
    try {
      res = await ai.models.generateContent({ model, contents, config: { ...genConfig, abortSignal: timeout } });
    } catch (err) {
      if (err instanceof ApiError) throw fromApiError(err, model, redact);
      if (timeout.aborted) {
        throw new GeminiError(504, "timeout", `Gemini did not answer within ${config.GEMINI_TIMEOUT_MS / 1000} s.`);
      }
      const msg = redact(errorMessage(err)).slice(0, 200);
      throw new GeminiError(502, "unavailable", `Gemini is not reachable at ${where} (${msg}).`);
    }
    return checkResponse(res);
  };
}
