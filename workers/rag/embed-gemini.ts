/**
 * @module Gemini embeddings through @google/genai (`models.embedContent`, which batches several
 * texts in one call). Needs GEMINI_API_KEY (or EMBEDDING_API_KEY); EMBEDDING_BASE_URL or
 * GEMINI_BASE_URL points it at a proxy or a test fake.
 */
import { ApiError, GoogleGenAI } from "@google/genai";
import type { Config } from "../../shared/config";
import { ToolError, errorMessage } from "../../shared/errors";
import type { Embedder } from "./embed";
import { checkVectors } from "./embed-util";

function reason(err: unknown, model: string): string {
  if (err instanceof ApiError) {
    const text = err.message;
    if (err.status === 401 || err.status === 403 || /API key not valid|API_KEY_INVALID/i.test(text)) {
      return `Gemini rejected the API key (HTTP ${err.status}): check GEMINI_API_KEY or EMBEDDING_API_KEY`;
    }
    if (err.status === 404) return `Gemini has no embedding model "${model}" (HTTP 404): check EMBEDDING_MODEL`;
    if (err.status === 429) return "Gemini embeddings are rate-limited or out of quota (HTTP 429); try again later";
    return `Gemini embeddings answered HTTP ${err.status}`;
  }
  const msg = errorMessage(err);
  if (/fetch failed|network|ECONNREFUSED|connect/i.test(msg))
    return "Gemini is not reachable: check the network or GEMINI_BASE_URL";
  return `Gemini embeddings failed: ${msg.slice(0, 200)}`;
}

/** An embedder backed by the Gemini API. */
export function geminiEmbedder(config: Config, model: string): Embedder {
  const apiKey = config.EMBEDDING_API_KEY ?? config.GEMINI_API_KEY;
  const baseUrl = config.EMBEDDING_BASE_URL ?? config.GEMINI_BASE_URL;
  let client: GoogleGenAI | undefined;
  return {
    provider: "gemini",
    model,
    async embed(texts, kind) {
      if (!apiKey) {
        throw new ToolError("Gemini embeddings are not configured: set GEMINI_API_KEY (or EMBEDDING_API_KEY)");
      }
      client ??= new GoogleGenAI({
        apiKey,
        httpOptions: { timeout: config.EMBEDDING_TIMEOUT_MS, ...(baseUrl ? { baseUrl } : {}) },
      });
      try {
        const res = await client.models.embedContent({
          model,
          contents: [...texts],
          config: {
            taskType: kind === "query" ? "RETRIEVAL_QUERY" : "RETRIEVAL_DOCUMENT",
            ...(config.EMBEDDING_DIMENSIONS ? { outputDimensionality: config.EMBEDDING_DIMENSIONS } : {}),
          },
        });
        return checkVectors(
          (res.embeddings ?? []).map((e) => e.values),
          "gemini",
          model,
        );
      } catch (err) {
        if (err instanceof ToolError) throw err;
        throw new ToolError(reason(err, model), { cause: err });
      }
    },
  };
}
