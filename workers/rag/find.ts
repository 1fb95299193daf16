/**
 * @module The qdrant-find pipeline: embed the query, ask Qdrant for candidates, rerank; with the
 * time each stage took. Rendering lives in qdrant-find.ts.
 */
import type { Config } from "../../shared/config";
import { ToolError } from "../../shared/errors";
import type { KnowledgeStore, SimpleFilter } from "./client";
import type { Embedder } from "./embed";
import type { AiRunner } from "./embed-workers-ai";
import { type RankedHit, type RerankMode, candidateCount, rerank } from "./rerank";

/** What to search for. */
export interface FindOptions {
  query: string;
  collection: string;
  /** Vector name ("" = unnamed). */
  using: string;
  limit: number;
  rerank: RerankMode;
  filter?: SimpleFilter | undefined;
  scoreThreshold?: number | undefined;
}

/** What the pipeline needs. */
export interface FindDeps {
  config: Config;
  store: KnowledgeStore;
  embedder: Embedder;
  ai?: AiRunner | undefined;
  fetch?: typeof fetch;
}

/** Milliseconds per stage. */
export interface StageTimings {
  embedMs: number;
  queryMs: number;
  rerankMs: number;
}

/** Run the search; throws ToolError with an actionable reason on any failure. */
export async function find(
  opts: FindOptions,
  deps: FindDeps,
): Promise<{ hits: RankedHit[]; candidates: number; timings: StageTimings }> {
  let t = performance.now();
  const [vector] = await deps.embedder.embed([opts.query], "query");
  if (!vector) throw new ToolError(`${deps.embedder.provider} embeddings returned no vector for the query`);
  const embedMs = performance.now() - t;
  t = performance.now();
  const candidates = await deps.store.query(opts.collection, {
    vector,
    using: opts.using,
    limit: candidateCount(opts.rerank, opts.limit, deps.config.RERANK_OVERFETCH),
    ...(opts.filter ? { filter: opts.filter } : {}),
    ...(opts.scoreThreshold !== undefined ? { scoreThreshold: opts.scoreThreshold } : {}),
  });
  const queryMs = performance.now() - t;
  t = performance.now();
  const hits = await rerank(opts.rerank, opts.query, candidates, opts.limit, deps);
  const rerankMs = performance.now() - t;
  return { hits, candidates: candidates.length, timings: { embedMs, queryMs, rerankMs } };
}
