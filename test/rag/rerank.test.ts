import { beforeEach, describe, expect, it } from "vitest";
import { bm25, keywordScores } from "../../workers/rag/keyword";
import { stem, tokenize } from "../../workers/rag/tokenize";
import { connect, fakeControl, fakeStats, fakeUrl } from "../helpers/mcp";
import { call, createCollection, textOf, upsert, vectorAt } from "./seed";

const Q = "ошибка туннеля 1033";

/** P1 is nearer in vector space but shares no words; P2 is a bit farther but says exactly what was asked. */
async function seedLexical() {
  await createCollection("knowledge");
  await upsert("knowledge", [
    { id: 1, vector: vectorAt(Q, 0.9), payload: { section: "Погода", source: "a.md", content: "Солнечно и тепло." } },
    {
      id: 2,
      vector: vectorAt(Q, 0.7),
      payload: { section: "Ошибка 1033", source: "b.md", content: "Код 1033: туннель не запущен, ошибка cloudflared." },
    },
  ]);
}

beforeEach(async () => {
  await fakeControl("qdrant", null);
  await fakeControl("reranker", null);
});

describe("tokenisation and BM25", () => {
  it("handles Cyrillic: case, ё, inflections and stop words", () => {
    expect(tokenize("Ёлка и ПОИСКА по Qdrant-коллекциям")).toEqual(["елк", "поиск", "qdrant", "коллекци"]);
    expect(stem("поиском")).toBe(stem("поиска"));
    expect(stem("searching")).toBe(stem("search"));
    for (const [a, b] of [
      ["stored", "store"],
      ["storing", "stores"],
      ["processes", "process"],
      ["queries", "query"],
      ["running", "run"],
    ]) {
      expect(stem(a ?? "")).toBe(stem(b ?? ""));
    }
  });

  it("scores documents with the query's words above those without", () => {
    const s = bm25("настройка туннеля", ["Настройка туннеля cloudflared", "Рецепт борща", "туннель"]);
    expect(s[0]).toBeGreaterThan(s[2] ?? 0);
    expect(s[2]).toBeGreaterThan(0);
    expect(s[1]).toBe(0);
  });

  it("blends the normalised lexical score with the vector score", () => {
    expect(keywordScores("борщ", ["борщ", "блины"], [0.2, 0.8], 0.5)).toEqual([0.6, 0.4]);
    expect(keywordScores("борщ", ["борщ", "блины"], [0.2, 0.8], 0)).toEqual([0.2, 0.8]);
  });
});

describe("qdrant-find reranking", () => {
  it("none keeps the vector order and scores", async () => {
    await seedLexical();
    const res = await call("qdrant-find", { query: Q, rerank: "none" });
    expect(textOf(res)).toMatch(/^1\. \(score: 0\.900\) Погода\n/);
  });

  it("keyword (the default RERANK_MODE) puts the passage with the query's words first and shows the blended score", async () => {
    await seedLexical();
    const res = await call("qdrant-find", { query: Q });
    expect(textOf(res)).toBe(
      "1. (score: 0.850) Ошибка 1033\n   Источник: b.md\n   Текст: Код 1033: туннель не запущен, ошибка cloudflared.\n\n" +
        "2. (score: 0.450) Погода\n   Источник: a.md\n   Текст: Солнечно и тепло.\n",
    );
    const data = res.structuredContent as { rerank: string; candidates: number; hits: Record<string, unknown>[] };
    expect(data.rerank).toBe("keyword");
    expect(data.hits[0]).toMatchObject({ id: 2, scoredBy: "keyword", vectorScore: expect.closeTo(0.7, 6) });
  });

  it("over-fetches candidates for reranking (limit × RERANK_OVERFETCH)", async () => {
    await seedLexical();
    const res = await call("qdrant-find", { query: Q, limit: 1 }, { RERANK_OVERFETCH: "2" });
    const data = res.structuredContent as { candidates: number; hits: { id: number }[] };
    expect(data.candidates).toBe(2);
    expect(data.hits.map((h) => h.id)).toEqual([2]);
  });

  it("cross-encoder asks RERANK_URL and shows its score", async () => {
    await seedLexical();
    const res = await call("qdrant-find", { query: Q, rerank: "cross-encoder" });
    expect(textOf(res)).toMatch(/^1\. \(score: 0\.982\) Ошибка 1033\n[\s\S]*2\. \(score: 0\.018\) Погода\n/);
    expect((res.structuredContent as { hits: { scoredBy: string }[] }).hits[0]?.scoredBy).toBe("cross-encoder");
    expect((await fakeStats("reranker")).log.map((l) => l.path)).toEqual(["/rerank"]);
  });

  it("cross-encoder sends RERANK_API_KEY and reports a rejected one without showing it", async () => {
    await seedLexical();
    await fakeControl("reranker", { apiKey: "rerank-key-1234" });
    const ok = await call("qdrant-find", { query: Q, rerank: "cross-encoder" }, { RERANK_API_KEY: "rerank-key-1234" });
    expect(ok.isError).toBeFalsy();
    const bad = await call("qdrant-find", { query: Q, rerank: "cross-encoder" }, { RERANK_API_KEY: "nope-key-5678" });
    expect(textOf(bad)).toBe(
      `Ошибка поиска: the reranker at ${fakeUrl("reranker")}/rerank rejected the key (HTTP 401): check RERANK_API_KEY`,
    );
  });

  it("cross-encoder refuses an answer that leaves passages without a score (no -Infinity in the text)", async () => {
    await seedLexical();
    await fakeControl("reranker", { fault: "partial" });
    const res = await call("qdrant-find", { query: Q, rerank: "cross-encoder" });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toBe("Ошибка поиска: the reranker scored 1 of 2 passages");
  });

  it("cross-encoder without RERANK_URL needs Workers AI, which tests and wrangler dev --local lack", async () => {
    await seedLexical();
    const res = await call("qdrant-find", { query: Q, rerank: "cross-encoder" }, { RERANK_URL: "" });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(
      /^Ошибка поиска: (Workers AI reranker @cf\/baai\/bge-reranker-base is not available here|cross-encoder reranking needs RERANK_URL)/,
    );
    expect(textOf(res)).toContain('use rerank "keyword"');
  });

  it("takes the mode from RERANK_MODE when the argument is absent", async () => {
    await seedLexical();
    const res = await call("qdrant-find", { query: Q }, { RERANK_MODE: "none" });
    expect((res.structuredContent as { rerank: string }).rerank).toBe("none");
  });

  it("works over SSE on /rag/sse with rerank", async () => {
    await seedLexical();
    const client = await connect("/rag/sse", "sse");
    const res = await client.callTool({ name: "qdrant-find", arguments: { query: Q, rerank: "keyword", limit: 1 } });
    expect(res.content).toEqual([
      {
        type: "text",
        text: "1. (score: 0.850) Ошибка 1033\n   Источник: b.md\n   Текст: Код 1033: туннель не запущен, ошибка cloudflared.\n",
      },
    ]);
    await client.close();
  });
});
