/**
 * @module Keyword reranking: Okapi BM25 over the over-fetched candidates (their own term
 * statistics; no index needed), blended with the vector score so meaning still counts.
 */
import { tokenize } from "./tokenize";

const K1 = 1.2;
const B = 0.75;

/**
 * BM25 score of each document for `query`, using the documents themselves as the corpus.
 * @example bm25("поиск qdrant", ["Поиск в Qdrant", "Anki"]) // → [0.9…, 0]
 */
export function bm25(query: string, docs: readonly string[]): number[] {
  const q = [...new Set(tokenize(query))];
  const toks = docs.map(tokenize);
  const n = toks.length;
  if (n === 0 || q.length === 0) return docs.map(() => 0);
  const avgdl = toks.reduce((s, t) => s + t.length, 0) / n || 1;
  const df = new Map<string, number>();
  for (const t of toks) for (const term of new Set(t)) df.set(term, (df.get(term) ?? 0) + 1);
  return toks.map((t) => {
    const tf = new Map<string, number>();
    for (const term of t) tf.set(term, (tf.get(term) ?? 0) + 1);
    let s = 0;
    for (const term of q) {
      const f = tf.get(term) ?? 0;
      if (!f) continue;
      const d = df.get(term) ?? 0;
      // The "+1" keeps idf positive when a term is in every candidate (BM25+ style).
      const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
      s += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * t.length) / avgdl));
    }
    return s;
  });
}

/**
 * Final keyword scores: `weight`·BM25/max(BM25) + (1−weight)·vector score. Both parts are in
 * [0, 1] for cosine collections, so the shown score stays comparable with plain vector scores.
 */
export function keywordScores(
  query: string,
  docs: readonly string[],
  vectorScores: readonly number[],
  weight: number,
): number[] {
  const lexical = bm25(query, docs);
  const max = Math.max(0, ...lexical);
  return lexical.map((l, i) => weight * (max > 0 ? l / max : 0) + (1 - weight) * (vectorScores[i] ?? 0));
}
