/** @module `search` (spec 000): the external search service, normalised to SearchResponse. */
import { z } from "zod";
import { defineTool } from "../../shared/tools/define-tool";
import { dataResult } from "../../shared/tools/results";
import { searchApi } from "./client";

/** SearchResult: the known fields, plus whatever else the upstream sent. */
export const SearchResultSchema = z.looseObject({
  title: z.string().nullable(),
  url: z.string().nullable(),
  snippet: z.string().nullable(),
  content: z.string().nullable(),
  score: z.number().nullable(),
});

/** SearchResponse as spec 000 defines it. */
export const SearchResponseSchema = z.object({
  results: z.array(SearchResultSchema),
  nextCursor: z.string().nullable(),
});

export const search = defineTool({
  name: "search",
  title: "Web search",
  description:
    "Search the web through the configured external search service. Returns results (title, url, snippet, content, score) and nextCursor for the next page.",
  input: z.strictObject({
    query: z.string().trim().min(1, "must not be empty").describe("Search query, e.g. site:n8n.io ChatGPT connector"),
    limit: z.number().int().min(1).max(100).optional().describe("Maximum results per page"),
    cursor: z.string().optional().describe("nextCursor of a previous answer, to get the next page"),
  }),
  output: SearchResponseSchema,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
  handler: async (args, ctx) => {
    const res = await searchApi(ctx.config, args, { fetch: ctx.fetch, signal: ctx.signal });
    return dataResult({ results: res.results, nextCursor: res.nextCursor });
  },
});
