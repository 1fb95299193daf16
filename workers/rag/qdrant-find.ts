/**
 * @module `qdrant-find` (spec 002): semantic search in a Qdrant collection with pluggable
 * embeddings and optional reranking; the text is rendered exactly as the seed does, and the hits
 * come back as data too.
 */
import { z } from "zod";
import { secretsOf } from "../../shared/config";
import { ToolError, errorMessage } from "../../shared/errors";
import type { ToolContext } from "../../shared/tools/context";
import { defineTool } from "../../shared/tools/define-tool";
import { dataResult, errorResult } from "../../shared/tools/results";
import { ragDeps, scrub } from "./deps";
import { find } from "./find";
import { RERANK_MODES, type RankedHit } from "./rerank";

const str = (v: unknown) => (typeof v === "string" ? v : v === undefined || v === null ? "" : String(v));

/**
 * Python's `f"{score:.3f}"`: ties go to the even digit (0.0625 → "0.062", where toFixed says
 * "0.063"), -0 keeps its sign, and nan / inf are spelled as Python does.
 */
export function pyFixed3(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (Object.is(x, -0)) return "-0.000";
  // A float is exactly halfway at the third decimal only when x·16 is an odd integer (x = k/16).
  const k = x * 16;
  if (Number.isInteger(k) && k % 2 !== 0) {
    const lo = Math.floor(x * 1000);
    const even = lo % 2 === 0 ? lo : lo + 1;
    return (even / 1000).toFixed(3);
  }
  return x.toFixed(3);
}

/** The seed's rendering: "{i}. (score: {score:.3f}) {section}", source, text (if any), blank line. */
export function renderHits(hits: readonly RankedHit[]): string {
  const lines: string[] = [];
  hits.forEach((hit, i) => {
    const content = str(hit.payload.content).trim();
    lines.push(`${i + 1}. (score: ${pyFixed3(hit.score)}) ${str(hit.payload.section)}`);
    lines.push(`   Источник: ${str(hit.payload.source)}`);
    if (content) lines.push(`   Текст: ${content}`);
    lines.push("");
  });
  return lines.join("\n");
}

/** The reason after "Ошибка поиска: ": actionable for known failures, never internals or secrets. */
export function failureReason(err: unknown, ctx: ToolContext): string {
  if (err instanceof ToolError) return scrub(err.message, secretsOf(ctx.config));
  ctx.log.error("rag call crashed", { error: errorMessage(err), stack: err instanceof Error ? err.stack : undefined });
  return "internal error; the server log has details";
}

const Hit = z.object({
  id: z.union([z.string(), z.number()]),
  score: z.number().describe("Final score (see scoredBy)"),
  vectorScore: z.number().describe("Similarity score from Qdrant"),
  scoredBy: z.enum(["vector", "keyword", "cross-encoder"]).describe("Stage that produced `score`"),
  section: z.string(),
  source: z.string(),
  content: z.string(),
});

export const qdrantFind = defineTool({
  name: "qdrant-find",
  title: "Search the knowledge base",
  description:
    "Semantic search in the Qdrant knowledge base (Russian and English). Returns the best passages with score, section and source. Use it to look up facts from the user's own notes and documents.",
  input: z.strictObject({
    // Missing or null reads as blank, as the seed's `(arguments or {}).get("query") or ""` does.
    query: z
      .preprocess((v) => v ?? "", z.string().max(4000))
      .describe("What to look for, in natural language, e.g. «как настроить туннель»"),
    limit: z.number().int().min(1).max(50).default(5).describe("How many passages to return (1–50, default 5)"),
    collection: z.string().trim().min(1).optional().describe("Qdrant collection (default: QDRANT_COLLECTION)"),
    score_threshold: z.number().optional().describe("Drop candidates whose vector score is below this value"),
    filter: z
      // Qdrant's match value is a string, an integer or a boolean (a float is a 400 format error).
      .record(
        z.string(),
        z.union([z.string(), z.number().int(), z.boolean()], {
          error: "must be text, an integer or a boolean (what Qdrant can match exactly)",
        }),
      )
      .optional()
      .describe('Payload fields that must match exactly, e.g. {"source": "docs/setup.md"}'),
    rerank: z
      .enum(RERANK_MODES)
      .optional()
      .describe("Reranking: none, keyword (BM25 blended with vector score) or cross-encoder (default: RERANK_MODE)"),
  }),
  output: z.object({
    query: z.string(),
    collection: z.string(),
    rerank: z.enum(RERANK_MODES),
    candidates: z.number().int().describe("Candidates fetched from Qdrant before reranking"),
    hits: z.array(Hit),
    timings: z.object({ embedMs: z.number(), queryMs: z.number(), rerankMs: z.number() }),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
  handler: async (args, ctx) => {
    const q = args.query.trim();
    if (!q) return errorResult("Укажите query для поиска.");
    const collection = args.collection ?? ctx.config.QDRANT_COLLECTION;
    const mode = args.rerank ?? ctx.config.RERANK_MODE;
    let found: Awaited<ReturnType<typeof find>>;
    try {
      found = await find(
        {
          query: q,
          collection,
          using: ctx.config.QDRANT_VECTOR_NAME,
          limit: args.limit,
          rerank: mode,
          filter: args.filter,
          scoreThreshold: args.score_threshold,
        },
        { config: ctx.config, ...ragDeps(ctx) },
      );
    } catch (err) {
      const reason = failureReason(err, ctx);
      ctx.log.info("qdrant-find failed", { reason });
      return errorResult(`Ошибка поиска: ${reason}`);
    }
    const data = {
      query: q,
      collection,
      rerank: mode,
      candidates: found.candidates,
      hits: found.hits.map((h) => ({
        id: h.id,
        score: h.score,
        vectorScore: h.vectorScore,
        scoredBy: h.scoredBy,
        section: str(h.payload.section),
        source: str(h.payload.source),
        content: str(h.payload.content).trim(),
      })),
      timings: found.timings,
    };
    if (found.hits.length === 0) return dataResult(data, `По запросу «${q}» ничего не найдено.`);
    return dataResult(data, renderHits(found.hits));
  },
});
