/**
 * @module Cross-encoder scores for (query, text) pairs: a TEI-style `POST {RERANK_URL}/rerank`
 * endpoint when RERANK_URL is set (also accepts Cohere/Jina-style `{results:[{index,
 * relevance_score}]}` answers), otherwise Workers AI `@cf/baai/bge-reranker-base`.
 */
import type { Config } from "../../shared/config";
import { ToolError, UpstreamError, errorMessage } from "../../shared/errors";
import { HttpStatusError, upstreamJson } from "../../shared/http/client";
import { safeUrl } from "./embed-util";
import { type AiRunner, WORKERS_AI_HINT } from "./embed-workers-ai";

type Scored = { index: number; score: number };

function parseScores(answer: unknown, n: number): number[] {
  const list: unknown = Array.isArray(answer)
    ? answer
    : answer && typeof answer === "object"
      ? ((answer as { results?: unknown; response?: unknown }).results ?? (answer as { response?: unknown }).response)
      : undefined;
  if (!Array.isArray(list)) throw new ToolError("the reranker answered without scores");
  const scores = Array.from({ length: n }, () => Number.NEGATIVE_INFINITY);
  for (const item of list as Record<string, unknown>[]) {
    const index = Number(item.index ?? item.id);
    const score = Number(item.score ?? item.relevance_score);
    if (Number.isInteger(index) && index >= 0 && index < n && Number.isFinite(score)) scores[index] = score;
  }
  // A passage without a score would show as "-Infinity" (and null in JSON): refuse instead.
  const scored = scores.filter(Number.isFinite).length;
  if (scored < n) throw new ToolError(`the reranker scored ${scored} of ${n} passages`);
  return scores;
}

/** One score per text (higher = more relevant), in the order of `texts`. */
export async function crossEncoderScores(
  config: Config,
  query: string,
  texts: readonly string[],
  deps: { ai?: AiRunner | undefined; fetch?: typeof fetch },
): Promise<number[]> {
  if (texts.length === 0) return [];
  if (config.RERANK_URL) {
    const base = config.RERANK_URL;
    const path = base.endsWith("/rerank") ? "" : "/rerank";
    const headers: Record<string, string> = {};
    if (config.RERANK_API_KEY) headers.Authorization = `Bearer ${config.RERANK_API_KEY}`;
    try {
      const answer = await upstreamJson<Scored[]>(
        { name: "Reranker", baseUrl: base, headers, ...(deps.fetch ? { fetch: deps.fetch } : {}) },
        {
          path,
          json: { query, texts, raw_scores: false },
          timeoutMs: config.EMBEDDING_TIMEOUT_MS,
          retry: { maxAttempts: 2 },
        },
      );
      return parseScores(answer, texts.length);
    } catch (err) {
      const shown = safeUrl(base + path);
      if (err instanceof HttpStatusError && (err.status === 401 || err.status === 403)) {
        throw new ToolError(`the reranker at ${shown} rejected the key (HTTP ${err.status}): check RERANK_API_KEY`);
      }
      if (err instanceof HttpStatusError) throw new ToolError(`the reranker at ${shown} answered HTTP ${err.status}`);
      if (err instanceof UpstreamError)
        throw new ToolError(`the reranker is not reachable at ${shown}: check RERANK_URL`);
      throw err;
    }
  }
  if (!deps.ai) {
    throw new ToolError(
      `cross-encoder reranking needs RERANK_URL (a TEI /rerank endpoint) or the Workers AI binding: ${WORKERS_AI_HINT}; or use rerank "keyword"`,
    );
  }
  let answer: unknown;
  try {
    answer = await deps.ai(config.RERANK_MODEL, { query, contexts: texts.map((text) => ({ text })) });
  } catch (err) {
    throw new ToolError(
      `Workers AI reranker ${config.RERANK_MODEL} is not available here (${errorMessage(err).slice(0, 160)}): set RERANK_URL or use rerank "keyword"`,
      { cause: err },
    );
  }
  return parseScores(answer, texts.length);
}
