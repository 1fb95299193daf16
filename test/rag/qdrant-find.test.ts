import { beforeEach, describe, expect, it } from "vitest";
import { api, connect, fakeControl, fakeStats, fakeUrl } from "../helpers/mcp";
import { renderHits } from "../../workers/rag/qdrant-find";
import { call, createCollection, textOf, upsert, vectorAt } from "./seed";

const Q = "настройка туннеля";

async function seedTwo(collection = "knowledge") {
  await createCollection(collection);
  await upsert(collection, [
    { id: 1, vector: vectorAt(Q, 1), payload: { section: "Раздел А", source: "docs/a.md", content: "  Текст А  " } },
    { id: 2, vector: vectorAt(Q, 0.6), payload: { section: "Раздел Б", source: "docs/b.md", content: "" } },
  ]);
}

beforeEach(async () => {
  await fakeControl("qdrant", null);
  await fakeControl("embeddings", null);
  await fakeControl("reranker", null);
});

describe("qdrant-find (spec 002)", () => {
  it.each([
    ["/rag/mcp", "streamable-http"],
    ["/rag/sse", "sse"],
    ["/mcp", "streamable-http"],
  ] as const)("renders hits exactly as the seed over %s", async (path, transport) => {
    await seedTwo();
    const client = await connect(path, transport);
    const res = await client.callTool({ name: "qdrant-find", arguments: { query: Q, rerank: "none" } });
    expect(res.isError).toBeFalsy();
    expect(res.content).toEqual([
      {
        type: "text",
        text:
          "1. (score: 1.000) Раздел А\n   Источник: docs/a.md\n   Текст: Текст А\n\n" +
          "2. (score: 0.600) Раздел Б\n   Источник: docs/b.md\n",
      },
    ]);
    const data = res.structuredContent as { hits: Record<string, unknown>[]; rerank: string; collection: string };
    expect(data.rerank).toBe("none");
    expect(data.collection).toBe("knowledge");
    expect(data.hits.map((h) => [h.id, h.section, h.source, h.content, h.scoredBy])).toEqual([
      [1, "Раздел А", "docs/a.md", "Текст А", "vector"],
      [2, "Раздел Б", "docs/b.md", "", "vector"],
    ]);
    await client.close();
  });

  it("lists only the rag tools on /rag", async () => {
    const client = await connect("/rag/mcp");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).toSorted()).toEqual(["qdrant-find", "qdrant-store"]);
    const find = tools.find((t) => t.name === "qdrant-find");
    expect(find?.inputSchema.required).toEqual(["query"]);
    await client.close();
  });

  it.each(["", "   \n"])("asks for a query when it is blank (%j)", async (query) => {
    const res = await call("qdrant-find", { query });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toBe("Укажите query для поиска.");
  });

  it('asks for a query when it is missing or null, as the seed\'s `.get("query") or ""` does', async () => {
    const client = await connect("/rag/mcp");
    for (const args of [{}, { query: null }]) {
      const res = await client.callTool({ name: "qdrant-find", arguments: args });
      expect(res.isError).toBe(true);
      expect(res.content).toEqual([{ type: "text", text: "Укажите query для поиска." }]);
    }
    await client.close();
  });

  it("formats the score as Python's {score:.3f}: halfway cases go to the even digit", () => {
    const hit = (score: number) => ({ id: 1, score, vectorScore: score, scoredBy: "vector" as const, payload: {} });
    const first = (score: number) => renderHits([hit(score)]).split("\n")[0];
    expect(first(0.0625)).toBe("1. (score: 0.062) ");
    expect(first(0.1875)).toBe("1. (score: 0.188) ");
    expect(first(-0.3125)).toBe("1. (score: -0.312) ");
    expect(first(0.12345)).toBe("1. (score: 0.123) ");
    expect(first(0.9996)).toBe("1. (score: 1.000) ");
    expect(first(-0)).toBe("1. (score: -0.000) ");
  });

  it("says nothing was found, as a normal result", async () => {
    await createCollection("knowledge");
    const res = await call("qdrant-find", { query: "  пусто  " });
    expect(res.isError).toBeFalsy();
    expect(textOf(res)).toBe("По запросу «пусто» ничего не найдено.");
    expect((res.structuredContent as { hits: unknown[] }).hits).toEqual([]);
  });

  it("honours limit, filter and score_threshold", async () => {
    await seedTwo();
    const one = await call("qdrant-find", { query: Q, limit: 1, rerank: "none" });
    expect((one.structuredContent as { hits: unknown[] }).hits).toHaveLength(1);
    const filtered = await call("qdrant-find", { query: Q, filter: { source: "docs/b.md" }, rerank: "none" });
    expect(textOf(filtered)).toBe("1. (score: 0.600) Раздел Б\n   Источник: docs/b.md\n");
    const above = await call("qdrant-find", { query: Q, score_threshold: 0.9, rerank: "none" });
    expect((above.structuredContent as { hits: { id: number }[] }).hits.map((h) => h.id)).toEqual([1]);
  });

  it("searches another collection when asked", async () => {
    await seedTwo("other");
    const res = await call("qdrant-find", { query: Q, collection: "other", rerank: "none" });
    expect(textOf(res)).toMatch(/^1\. \(score: 1\.000\) Раздел А/);
  });

  it("takes filter values Qdrant can match (text, integer, boolean), not floats", async () => {
    const res = await call("qdrant-find", { query: Q, filter: { chunk: 1.5 } });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toBe(
      "Invalid arguments: filter.chunk: must be text, an integer or a boolean (what Qdrant can match exactly)",
    );
  });

  it("rejects a limit above 50", async () => {
    const res = await call("qdrant-find", { query: Q, limit: 51 });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toContain("limit");
  });
});

describe("qdrant-find failures: Ошибка поиска with a reason a person can act on", () => {
  it("names a missing collection", async () => {
    const res = await call("qdrant-find", { query: Q, collection: "nope" });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toBe(
      `Ошибка поиска: collection \`nope\` does not exist in Qdrant at ${fakeUrl("qdrant")}: fill it with qdrant-store or \`npm run ingest\`, or choose another collection (QDRANT_COLLECTION)`,
    );
  });

  it("names a wrong vector name and what the collection has", async () => {
    await createCollection("knowledge");
    const res = await call("qdrant-find", { query: Q }, { QDRANT_VECTOR_NAME: "text" });
    expect(textOf(res)).toBe(
      'Ошибка поиска: collection `knowledge` has no vector named "text": set QDRANT_VECTOR_NAME; the collection has only the unnamed vector: leave QDRANT_VECTOR_NAME empty',
    );
    await createCollection("named", 256, "dense");
    const res2 = await call("qdrant-find", { query: Q, collection: "named" });
    expect(textOf(res2)).toBe(
      'Ошибка поиска: collection `named` has no unnamed vector (it uses named vectors): set QDRANT_VECTOR_NAME; it has: "dense"',
    );
  });

  it("names both sizes on a dimension mismatch", async () => {
    await createCollection("knowledge", 128);
    const res = await call("qdrant-find", { query: Q });
    expect(textOf(res)).toBe(
      "Ошибка поиска: dimension mismatch: collection `knowledge` holds 128-dimensional vectors but the embedding model produced 256: use the model the collection was filled with (EMBEDDING_PROVIDER / EMBEDDING_MODEL / EMBEDDING_DIMENSIONS) or re-ingest into a new collection",
    );
  });

  it("says Qdrant is unreachable", async () => {
    const res = await call("qdrant-find", { query: Q }, { QDRANT_URL: "http://127.0.0.1:9" });
    expect(textOf(res)).toBe(
      "Ошибка поиска: Qdrant is not reachable at http://127.0.0.1:9: is it running (docker run -p 6333:6333 qdrant/qdrant) and is QDRANT_URL right?",
    );
  });

  it("says Qdrant is down when the connection drops", async () => {
    await fakeControl("qdrant", { down: true });
    const res = await call("qdrant-find", { query: Q });
    expect(textOf(res)).toMatch(/^Ошибка поиска: Qdrant is not reachable at http:\/\/127\.0\.0\.1:\d+: is it running/);
  });

  it("reports a missing and a wrong Qdrant API key without showing it", async () => {
    await seedTwo();
    await fakeControl("qdrant", { apiKey: "right-key-123456" });
    const missing = await call("qdrant-find", { query: Q });
    expect(textOf(missing)).toBe(
      `Ошибка поиска: Qdrant at ${fakeUrl("qdrant")} requires an API key (HTTP 401): set QDRANT_API_KEY`,
    );
    const wrong = await call("qdrant-find", { query: Q }, { QDRANT_API_KEY: "wrong-key-987654" });
    expect(textOf(wrong)).toBe(
      `Ошибка поиска: Qdrant at ${fakeUrl("qdrant")} rejected the API key (HTTP 401: Invalid API key or JWT): check QDRANT_API_KEY`,
    );
    expect(JSON.stringify(wrong)).not.toContain("wrong-key-987654");
    const right = await call("qdrant-find", { query: Q, rerank: "none" }, { QDRANT_API_KEY: "right-key-123456" });
    expect(textOf(right)).toMatch(/^1\. \(score: 1\.000\)/);
  });

  it("reports Qdrant's own 5xx message", async () => {
    await fakeControl("qdrant", { fault: "error" });
    const res = await call("qdrant-find", { query: Q });
    expect(textOf(res)).toBe(
      `Ошибка поиска: Qdrant at ${fakeUrl("qdrant")} answered HTTP 500: Service internal error: fake failure`,
    );
  });

  it("reports a rejected embedding key without showing it", async () => {
    await seedTwo();
    await fakeControl("embeddings", { apiKey: "emb-right-key-1" });
    const res = await call("qdrant-find", { query: Q }, { EMBEDDING_API_KEY: "emb-wrong-key-2" });
    expect(textOf(res)).toBe(
      `Ошибка поиска: the embedding endpoint ${fakeUrl("embeddings")}/v1 rejected the API key (HTTP 401): check EMBEDDING_API_KEY`,
    );
    expect(JSON.stringify(res)).not.toContain("emb-wrong-key-2");
  });

  it("says the embedding server is unreachable", async () => {
    const res = await call("qdrant-find", { query: Q }, { EMBEDDING_BASE_URL: "http://127.0.0.1:9/v1" });
    expect(textOf(res)).toBe(
      "Ошибка поиска: the embedding endpoint is not reachable at http://127.0.0.1:9/v1: is the embedding server running, and is EMBEDDING_BASE_URL right?",
    );
  });
});

describe("qdrant-find under pressure and over REST", () => {
  it("says how long it waited when Qdrant is too slow", async () => {
    await seedTwo();
    await fakeControl("qdrant", { latencyMs: 400 });
    const res = await call("qdrant-find", { query: Q }, { QDRANT_TIMEOUT_MS: "150" });
    expect(textOf(res)).toBe(
      `Ошибка поиска: Qdrant at ${fakeUrl("qdrant")} did not answer within 150 ms (QDRANT_TIMEOUT_MS)`,
    );
  });

  it("answers POST /tools/qdrant-find like tools/call, with 422 for a failure", async () => {
    await seedTwo();
    const ok = await api("/tools/qdrant-find", { method: "POST", json: { query: Q, rerank: "none", limit: 1 } });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { content: { text: string }[] }).content[0]?.text).toBe(
      "1. (score: 1.000) Раздел А\n   Источник: docs/a.md\n   Текст: Текст А\n",
    );
    const bad = await api("/tools/qdrant-find", { method: "POST", json: { query: " " } });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { error: string }).error).toBe("Укажите query для поиска.");
  });
});

describe("qdrant-find when QDRANT_URL points at something else", () => {
  it("says the answer is not the Qdrant API", async () => {
    await fakeControl("qdrant", { fault: "garbage" });
    const res = await call("qdrant-find", { query: Q });
    expect(textOf(res)).toBe(
      `Ошибка поиска: Qdrant at ${fakeUrl("qdrant")} answered with something that is not the Qdrant API: check QDRANT_URL`,
    );
  });
});

describe("QDRANT_URL as written", () => {
  it("keeps a path prefix and the URL's own port (the JS client would append :6333)", async () => {
    await seedTwo();
    const res = await call("qdrant-find", { query: Q }, { QDRANT_URL: `${fakeUrl("qdrant")}/qdrant` });
    expect(textOf(res)).toBe(
      `Ошибка поиска: Qdrant at ${fakeUrl("qdrant")}/qdrant answered HTTP 404: Not found: /qdrant/collections/knowledge/points/query: check QDRANT_URL (no path prefix?)`,
    );
    const log = (await fakeStats("qdrant")).log.map((l) => l.path);
    expect(log.at(-1)).toBe("/qdrant/collections/knowledge/points/query");
  });
});
