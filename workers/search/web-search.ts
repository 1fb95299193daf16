/** @module `web_search(query, max_results=5)` (spec 003): the same search, as a numbered text list for ReAct agents. */
import { z } from "zod";
import { defineTool } from "../../shared/tools/define-tool";
import { dataResult } from "../../shared/tools/results";
import { type SearchResult, searchApi } from "./client";
import { SearchResponseSchema } from "./search";

/** "1. Title\n   url\n   snippet" per result, blank line between. */
export function renderResults(results: readonly SearchResult[]): string {
  return results
    .map((r, i) => {
      const lines = [`${i + 1}. ${r.title ?? r.url ?? "(без названия)"}`];
      if (r.url) lines.push(`   ${r.url}`);
      const text = r.snippet ?? r.content;
      if (text) lines.push(`   ${text.replace(/\s+/g, " ").trim()}`);
      return lines.join("\n");
    })
    .join("\n\n");
}

export const webSearch = defineTool({
  name: "web_search",
  title: "Web search (text)",
  description:
    "Выполняет общий поиск в интернете по заданному запросу. Используйте для поиска актуальной информации или фактов. Returns a numbered list of results.",
  input: z.strictObject({
    query: z.string().trim().min(1, "must not be empty").describe("Поисковый запрос."),
    max_results: z
      .number()
      .int()
      .min(1)
      .max(50)
      .default(5)
      .describe("Максимальное количество возвращаемых результатов."),
  }),
  output: SearchResponseSchema,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
  handler: async ({ query, max_results }, ctx) => {
    const res = await searchApi(ctx.config, { query, limit: max_results }, { fetch: ctx.fetch, signal: ctx.signal });
    const results = res.results.slice(0, max_results);
    const text = results.length ? renderResults(results) : `По запросу «${query}» ничего не найдено.`;
    return dataResult({ results, nextCursor: res.nextCursor }, text);
  },
});
