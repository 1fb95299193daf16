import { beforeEach, describe, expect, it } from "vitest";
import { connect, fakeControl, fakeStats, fakeUrl } from "../helpers/mcp";
import { call, count, qdrant, textOf } from "./seed";

beforeEach(async () => {
  await fakeControl("qdrant", null);
  await fakeControl("embeddings", null);
});

describe("qdrant-store", () => {
  it.each([
    ["/rag/mcp", "streamable-http"],
    ["/rag/sse", "sse"],
  ] as const)("creates the collection, stores, and qdrant-find finds it (%s)", async (path, transport) => {
    const client = await connect(path, transport);
    const stored = await client.callTool({
      name: "qdrant-store",
      arguments: {
        content: "Туннель запускается командой cloudflared tunnel run.",
        section: "Запуск",
        source: "notes/tunnel.md",
      },
    });
    expect(stored.isError).toBeFalsy();
    expect(stored.content).toEqual([
      {
        type: "text",
        text: "Сохранено в коллекцию «knowledge»: 1 фрагм. (раздел: Запуск, источник: notes/tunnel.md). Коллекция создана.",
      },
    ]);
    const info = await qdrant("GET", "/collections/knowledge");
    expect(info.result).toMatchObject({ config: { params: { vectors: { size: 256, distance: "Cosine" } } } });
    const found = await client.callTool({ name: "qdrant-find", arguments: { query: "как запустить туннель" } });
    expect((found.content as { text: string }[])[0]?.text).toMatch(
      /^1\. \(score: \d\.\d{3}\) Запуск\n   Источник: notes\/tunnel\.md\n   Текст: Туннель запускается командой cloudflared tunnel run\.\n$/,
    );
    await client.close();
  });

  it("never duplicates the same text, and splits long texts into bounded chunks", async () => {
    const args = { content: "Первый абзац.\n\nВторой абзац.", section: "S", source: "src" };
    const a = await call("qdrant-store", args);
    const before = (await fakeStats("qdrant")).requests;
    const b = await call("qdrant-store", args);
    expect((await fakeStats("qdrant")).requests - before).toBe(1); // one upsert, no existence checks
    expect(a.structuredContent).toMatchObject({ createdCollection: true, chunks: 1 });
    expect(b.structuredContent).toMatchObject({ createdCollection: false, chunks: 1 });
    expect((a.structuredContent as { ids: string[] }).ids).toEqual((b.structuredContent as { ids: string[] }).ids);
    expect(await count("knowledge")).toBe(1);
    const long = Array.from({ length: 30 }, (_, i) => `Предложение номер ${i} о поиске в базе знаний.`).join(" ");
    const c = await call("qdrant-store", { content: long, source: "long" }, { CHUNK_MAX_CHARS: "300" });
    expect((c.structuredContent as { chunks: number }).chunks).toBeGreaterThan(3);
  });

  it("creates the collection with the configured named vector", async () => {
    await call("qdrant-store", { content: "текст", collection: "named" }, { QDRANT_VECTOR_NAME: "dense" });
    const info = await qdrant("GET", "/collections/named");
    expect(info.result).toMatchObject({ config: { params: { vectors: { dense: { size: 256 } } } } });
    const found = await call("qdrant-find", { query: "текст", collection: "named" }, { QDRANT_VECTOR_NAME: "dense" });
    expect(textOf(found)).toMatch(/^1\. \(score: 1\.000\) \n   Источник: qdrant-store\n   Текст: текст\n$/);
  });

  it("asks for content when it is blank, and reports failures with a reason", async () => {
    expect(textOf(await call("qdrant-store", { content: "  " }))).toBe("Укажите content для сохранения.");
    const res = await call("qdrant-store", { content: "x y" }, { QDRANT_URL: "http://127.0.0.1:9" });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toBe(
      "Ошибка сохранения: Qdrant is not reachable at http://127.0.0.1:9: is it running (docker run -p 6333:6333 qdrant/qdrant) and is QDRANT_URL right?",
    );
  });
});

describe("embedding providers", () => {
  it("Gemini through @google/genai (batchEmbedContents) serves store and find", async () => {
    const vars = {
      EMBEDDING_PROVIDER: "gemini",
      EMBEDDING_MODEL: "gemini-embedding-001",
      EMBEDDING_BASE_URL: fakeUrl("embeddings"),
      GEMINI_API_KEY: "gemini-test-key-1",
    };
    await fakeControl("embeddings", { apiKey: "gemini-test-key-1" });
    const stored = await call("qdrant-store", { content: "Персеиды видны в августе", section: "Метеоры" }, vars);
    expect(stored.isError).toBeFalsy();
    const found = await call("qdrant-find", { query: "Персеиды видны в августе", rerank: "none" }, vars);
    expect(textOf(found)).toMatch(
      /^1\. \(score: 0\.\d{3}\) Метеоры\n   Источник: qdrant-store\n   Текст: Персеиды видны в августе\n$/,
    );
    const paths = (await fakeStats("embeddings")).log.map((l) => l.path);
    expect(paths.every((p) => p.startsWith("/v1beta/models/gemini-embedding-001:"))).toBe(true);
    const bad = await call("qdrant-find", { query: "x" }, { ...vars, GEMINI_API_KEY: "gemini-wrong-key" });
    expect(textOf(bad)).toBe(
      "Ошибка поиска: Gemini rejected the API key (HTTP 400): check GEMINI_API_KEY or EMBEDDING_API_KEY",
    );
    expect(JSON.stringify(bad)).not.toContain("gemini-wrong-key");
  });

  it("Gemini without a key says what to set", async () => {
    const res = await call("qdrant-find", { query: "x" }, { EMBEDDING_PROVIDER: "gemini", GEMINI_API_KEY: "" });
    expect(textOf(res)).toBe(
      "Ошибка поиска: Gemini embeddings are not configured: set GEMINI_API_KEY (or EMBEDDING_API_KEY)",
    );
  });

  it("Workers AI is not usable in tests and says which other providers to use", async () => {
    const res = await call("qdrant-find", { query: "x" }, { EMBEDDING_PROVIDER: "workers-ai" });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(
      /^Ошибка поиска: Workers AI embeddings (\([^)]+\) are not available here|are not configured)/,
    );
    expect(textOf(res)).toContain("EMBEDDING_PROVIDER=openai");
  });

  it("OpenAI-compatible sends model, input and dimensions", async () => {
    const res = await call("qdrant-store", { content: "abc" }, { EMBEDDING_DIMENSIONS: "64", EMBEDDING_MODEL: "m" });
    expect(res.isError).toBeFalsy();
    const info = await qdrant("GET", "/collections/knowledge");
    expect(info.result).toMatchObject({ config: { params: { vectors: { size: 64 } } } });
  });
});
