/**
 * @module Reranking of over-fetched candidates: `none` keeps the vector order, `keyword` blends
 * BM25 with the vector score, `cross-encoder` asks a cross-encoder model. Every hit says which
 * stage produced its final score.
 */
import type { Config } from "../../shared/config";
import type { ScoredHit } from "./client";
import { crossEncoderScores } from "./cross-encoder";
import type { AiRunner } from "./embed-workers-ai";
import { keywordScores } from "./keyword";

export const RERANK_MODES = ["none", "keyword", "cross-encoder"] as const;
export type RerankMode = (typeof RERANK_MODES)[number];

/** A hit after reranking: final score, the vector score it started with, and who scored it. */
export interface RankedHit extends ScoredHit {
  vectorScore: number;
  scoredBy: "vector" | "keyword" | "cross-encoder";
}

/** How many candidates to ask Qdrant for, given the mode. */
export function candidateCount(mode: RerankMode, limit: number, overfetch: number): number {
  return mode === "none" ? limit : Math.min(200, limit * overfetch);
}

/** The text a reranker reads for a hit: section title plus content. */
export function hitText(hit: ScoredHit): string {
  const section = typeof hit.payload.section === "string" ? hit.payload.section : "";
  const content = typeof hit.payload.content === "string" ? hit.payload.content : "";
  return section && content ? `${section}\n${content}` : section || content;
}

/** Rerank `hits` for `query` and keep the best `limit`. */
export async function rerank(
  mode: RerankMode,
  query: string,
  hits: readonly ScoredHit[],
  limit: number,
  deps: { config: Config; ai?: AiRunner | undefined; fetch?: typeof fetch },
): Promise<RankedHit[]> {
  if (mode === "none" || hits.length === 0) {
    return hits.slice(0, limit).map((h) => ({ ...h, vectorScore: h.score, scoredBy: "vector" as const }));
  }
  const texts = hits.map(hitText);
  const scores =
    mode === "keyword"
      ? keywordScores(
          query,
          texts,
          hits.map((h) => h.score),
          deps.config.RERANK_KEYWORD_WEIGHT,
        )
      : await crossEncoderScores(deps.config, query, texts, deps);
  const ranked = hits.map((h, i) => ({
    ...h,
    vectorScore: h.score,
    score: scores[i] ?? Number.NEGATIVE_INFINITY,
    scoredBy: mode,
  }));
  // Stable: equal final scores keep the vector order.
  ranked.sort((a, b) => b.score - a.score);
  return ranked.slice(0, limit);
}
