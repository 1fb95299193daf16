/**
 * @module OpenAI-compatible embeddings (`POST {EMBEDDING_BASE_URL}/embeddings`): OpenAI, Ollama,
 * Hugging Face TEI, LM Studio, vLLM… The base URL usually ends in `/v1`.
 */
import type { Config } from "../../shared/config";
import { ToolError, UpstreamError } from "../../shared/errors";
import { HttpStatusError, upstreamJson } from "../../shared/http/client";
import type { Embedder } from "./embed";
import { checkVectors, safeUrl } from "./embed-util";

interface OpenAiAnswer {
  data?: { index?: number; embedding?: unknown }[];
}

function upstreamMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string };
    const msg = typeof parsed.error === "string" ? parsed.error : parsed.error?.message;
    if (typeof msg === "string") return msg.slice(0, 300);
  } catch {
    /* plain text */
  }
  return body.slice(0, 200);
}

/** An embedder for any OpenAI-compatible /embeddings endpoint. */
export function openaiEmbedder(config: Config, model: string, doFetch?: typeof fetch): Embedder {
  const base = config.EMBEDDING_BASE_URL ?? "https://api.openai.com/v1";
  const shown = safeUrl(base);
  const headers: Record<string, string> = {};
  if (config.EMBEDDING_API_KEY) headers.Authorization = `Bearer ${config.EMBEDDING_API_KEY}`;
  const up = {
    name: "Embeddings",
    baseUrl: base,
    headers,
    unreachableHint: "is the embedding server running, and is EMBEDDING_BASE_URL right?",
    ...(doFetch ? { fetch: doFetch } : {}),
  };
  return {
    provider: "openai",
    model,
    async embed(texts) {
      const json: Record<string, unknown> = { model, input: texts };
      if (config.EMBEDDING_DIMENSIONS) json.dimensions = config.EMBEDDING_DIMENSIONS;
      let answer: OpenAiAnswer;
      try {
        answer = await upstreamJson<OpenAiAnswer>(up, {
          path: "/embeddings",
          json,
          timeoutMs: config.EMBEDDING_TIMEOUT_MS,
          retry: { maxAttempts: 2 },
        });
      } catch (err) {
        if (!(err instanceof HttpStatusError)) {
          if (err instanceof UpstreamError)
            throw new ToolError(err.message.replace(/^Embeddings/, `the embedding endpoint`));
          throw err;
        }
        const detail = upstreamMessage(err.bodyText);
        if (err.status === 401 || err.status === 403) {
          throw new ToolError(
            `the embedding endpoint ${shown} rejected the API key (HTTP ${err.status}): check EMBEDDING_API_KEY`,
          );
        }
        if (err.status === 404) {
          throw new ToolError(
            `the embedding endpoint ${shown}/embeddings was not found or has no model "${model}" (HTTP 404${detail ? `: ${detail}` : ""}); EMBEDDING_BASE_URL usually ends in /v1`,
          );
        }
        throw new ToolError(
          `the embedding endpoint ${shown} answered HTTP ${err.status}${detail ? `: ${detail}` : ""}`,
        );
      }
      const data = Array.isArray(answer.data) ? [...answer.data] : [];
      data.sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
      return checkVectors(
        data.map((d) => d.embedding),
        "openai-compatible",
        model,
      );
    },
  };
}
