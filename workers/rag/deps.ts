/** @module Builds the rag family's upstream clients (Qdrant, embedder, Workers AI) from a tool context. */
import type { ToolContext } from "../../shared/tools/context";
import { KnowledgeStore } from "./client";
import { type Embedder, createEmbedder } from "./embed";
import { type AiRunner, bindingRunner } from "./embed-workers-ai";

/** The clients one rag tool call uses. */
export interface RagDeps {
  store: KnowledgeStore;
  embedder: Embedder;
  ai: AiRunner | undefined;
  fetch: typeof fetch;
}

/** Clients for this call's settings and bindings. */
export function ragDeps(ctx: ToolContext): RagDeps {
  const { config } = ctx;
  const ai = bindingRunner((ctx.bindings as { AI?: Ai }).AI);
  return {
    store: new KnowledgeStore({
      url: config.QDRANT_URL ?? "http://127.0.0.1:6333",
      apiKey: config.QDRANT_API_KEY,
      timeoutMs: config.QDRANT_TIMEOUT_MS,
    }),
    embedder: createEmbedder(config, { ai, fetch: ctx.fetch }),
    ai,
    fetch: ctx.fetch,
  };
}

/** Replace any secret of the settings that slipped into a message. */
export function scrub(message: string, secrets: readonly (string | undefined)[]): string {
  let out = message;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join("[redacted]");
  return out;
}
