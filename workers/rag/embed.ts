/**
 * @module Pluggable embeddings: one `Embedder` interface, chosen by EMBEDDING_PROVIDER
 * (workers-ai | gemini | openai). The same provider serves qdrant-find, qdrant-store and
 * `npm run ingest`, so stored and query vectors always come from the same model.
 */
import type { Config } from "../../shared/config";
import { ToolError } from "../../shared/errors";
import { geminiEmbedder } from "./embed-gemini";
import { openaiEmbedder } from "./embed-openai";
import { type AiRunner, workersAiEmbedder } from "./embed-workers-ai";

export type { AiRunner } from "./embed-workers-ai";

/** Whether a text is a search query or a stored document (some models embed them differently). */
export type EmbedKind = "query" | "document";

/** Turns texts into vectors. */
export interface Embedder {
  provider: "workers-ai" | "gemini" | "openai";
  model: string;
  /** One vector per text, in order. Throws UpstreamError/ToolError with an actionable message. */
  embed(texts: readonly string[], kind: EmbedKind): Promise<number[][]>;
}

/** Default model per provider: multilingual where it matters, since much content is Russian. */
export const DEFAULT_MODELS = {
  "workers-ai": "@cf/baai/bge-m3",
  gemini: "gemini-embedding-001",
  openai: "text-embedding-3-small",
} as const;

/** What an embedder may need besides settings. */
export interface EmbedDeps {
  /** Workers AI: the `AI` binding's run (in the Worker) or a REST runner (in Node). */
  ai?: AiRunner | undefined;
  fetch?: typeof fetch;
}

/** The embedder the settings ask for. */
export function createEmbedder(config: Config, deps: EmbedDeps = {}): Embedder {
  const provider = config.EMBEDDING_PROVIDER ?? "workers-ai";
  const model = config.EMBEDDING_MODEL ?? DEFAULT_MODELS[provider];
  if (provider === "openai") return openaiEmbedder(config, model, deps.fetch);
  if (provider === "gemini") return geminiEmbedder(config, model);
  return workersAiEmbedder(model, deps.ai);
}

/** Embed many texts in batches of `size`, reporting progress after each batch. */
export async function embedInBatches(
  embedder: Embedder,
  texts: readonly string[],
  kind: EmbedKind,
  size: number,
  onBatch?: (done: number, total: number) => void,
): Promise<number[][]> {
  const out: number[][] = [];
  for (let i = 0; i < texts.length; i += size) {
    const batch = texts.slice(i, i + size);
    const vectors = await embedder.embed(batch, kind);
    if (vectors.length !== batch.length) {
      throw new ToolError(
        `${embedder.provider} embeddings returned ${vectors.length} vectors for ${batch.length} texts (model ${embedder.model})`,
      );
    }
    out.push(...vectors);
    onBatch?.(out.length, texts.length);
  }
  return out;
}
