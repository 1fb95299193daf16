/**
 * Knowledge section: qdrant-find latency by stage (embed, query, rerank, as the tool reports them
 * in structuredContent.timings) at 1k and 10k stored chunks, per rerank mode; the CPU cost of the
 * keyword scorer measured in Node (workerd's clock does not advance during pure CPU work); and
 * MRR@5 of none / keyword / cross-encoder on the labelled Russian + English corpus in
 * test/fixtures/knowledge, ingested through the real `npm run ingest` code path. With
 * GEMINI_API_KEY (or OPENAI_API_KEY) set, MRR is also measured with that real embedder.
 */
import { readFileSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { loadConfig } from "../shared/config";
import { createLogger } from "../shared/log";
import { fakeEmbed } from "../test/fakes/embeddings";
import { envForFakes } from "../test/fakes/index";
import { KnowledgeStore } from "../workers/rag/client";
import { createEmbedder } from "../workers/rag/embed";
import { find } from "../workers/rag/find";
import { keywordScores } from "../workers/rag/keyword";
import type { RerankMode } from "../workers/rag/rerank";
import { ingestPaths } from "../scripts/ingest-files";
import { type BenchSection, type Stack, percentile, table } from "./harness";

const FIXTURES = "test/fixtures/knowledge";
const QUERIES_PER_CELL = 40;
const WORDS = (
  "туннель поиск коллекция вектор карточка модель поле запрос ответ ошибка настройка сервер ключ доступ " +
  "qdrant embedding chunk section source index payload cosine filter score rerank anki comfy workflow prompt " +
  "борщ блины хлеб луна телескоп сад томат компост garden tomato compost moon telescope sampler steps memory"
).split(" ");

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function sentence(r: () => number, n: number): string {
  return Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)] ?? "x").join(" ");
}

async function qdrant(stack: Stack, method: string, path: string, body?: unknown): Promise<void> {
  const url = stack.fakes.qdrant?.url ?? "";
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`fake Qdrant ${method} ${path}: ${res.status} ${await res.text()}`);
}

/** Fill `collection` with `n` synthetic chunks embedded by the fake embedder (straight into the fake, no HTTP embedding). */
async function fill(stack: Stack, collection: string, n: number): Promise<void> {
  await qdrant(stack, "PUT", `/collections/${collection}`, { vectors: { size: 256, distance: "Cosine" } });
  const r = rng(n);
  for (let i = 0; i < n; i += 500) {
    const points = Array.from({ length: Math.min(500, n - i) }, (_, j) => {
      const content = sentence(r, 40);
      const section = sentence(r, 3);
      return {
        id: i + j,
        vector: fakeEmbed(`${section}\n\n${content}`, 256),
        payload: { section, source: `synthetic/${i + j}.md`, content },
      };
    });
    await qdrant(stack, "PUT", `/collections/${collection}/points?wait=true`, { points });
  }
}

type Timings = { embedMs: number; queryMs: number; rerankMs: number };

async function latency(client: Client, collection: string, chunks: number, rerank: RerankMode) {
  const r = rng(7);
  const stages: Timings[] = [];
  const totals: number[] = [];
  for (let i = 0; i < QUERIES_PER_CELL; i++) {
    const t = performance.now();
    const res = await client.callTool({
      name: "qdrant-find",
      arguments: { query: sentence(r, 4), collection, rerank },
    });
    totals.push(performance.now() - t);
    if (res.isError) throw new Error(JSON.stringify(res.content));
    stages.push((res.structuredContent as { timings: Timings }).timings);
  }
  const p50 = (xs: number[]) =>
    percentile(
      xs.toSorted((a, b) => a - b),
      50,
    );
  return {
    chunks,
    rerank,
    n: QUERIES_PER_CELL,
    embed_p50_ms: p50(stages.map((s) => s.embedMs)),
    query_p50_ms: p50(stages.map((s) => s.queryMs)),
    rerank_p50_ms: p50(stages.map((s) => s.rerankMs)),
    total_p50_ms: p50(totals),
    total_p95_ms: percentile(
      totals.toSorted((a, b) => a - b),
      95,
    ),
  };
}

/** CPU time of the keyword scorer for 20 candidates (limit 5 × overfetch 4), in Node. */
function keywordCpu(): Record<string, unknown> {
  const r = rng(3);
  const docs = Array.from({ length: 20 }, () => sentence(r, 60));
  const vec = docs.map(() => r());
  const runs = 2000;
  const t = performance.now();
  for (let i = 0; i < runs; i++) keywordScores(sentence(r, 4), docs, vec, 0.5);
  return {
    what: "keyword rerank of 20 candidates × ~60 words (Node CPU)",
    us_per_call: ((performance.now() - t) * 1000) / runs,
  };
}

interface Labelled {
  query: string;
  relevant: string[];
}

function rank(sections: string[], relevant: string[]): number {
  const i = sections.findIndex((s) => relevant.includes(s));
  return i < 0 ? 0 : i + 1;
}

function summary(embedder: string, mode: string, ranks: number[]) {
  return {
    embedder,
    rerank: mode,
    queries: ranks.length,
    "MRR@5": ranks.reduce((s, r) => s + (r ? 1 / r : 0), 0) / ranks.length,
    "hit@1": ranks.filter((r) => r === 1).length / ranks.length,
    "hit@5": ranks.filter((r) => r > 0).length / ranks.length,
  };
}

async function mrrViaTool(client: Client, queries: Labelled[], collection: string) {
  const rows = [];
  for (const mode of ["none", "keyword", "cross-encoder"] as const) {
    const ranks: number[] = [];
    for (const q of queries) {
      const res = await client.callTool({
        name: "qdrant-find",
        arguments: { query: q.query, collection, rerank: mode, limit: 5 },
      });
      const hits = (res.structuredContent as { hits: { section: string }[] } | undefined)?.hits ?? [];
      ranks.push(
        rank(
          hits.map((h) => h.section),
          q.relevant,
        ),
      );
    }
    rows.push(summary("fake (hashed n-grams)", mode === "cross-encoder" ? "cross-encoder (fake TEI)" : mode, ranks));
  }
  return rows;
}

/** MRR with a real embedder, in Node through the same find() pipeline, when a key is set. */
async function mrrReal(stack: Stack, queries: Labelled[]) {
  const env = process.env;
  const provider = env.GEMINI_API_KEY ? "gemini" : env.OPENAI_API_KEY ? "openai" : undefined;
  if (!provider) return [];
  const urls = Object.fromEntries(Object.entries(stack.fakes).map(([k, f]) => [k, f.url]));
  const config = loadConfig({
    ...envForFakes(urls),
    EMBEDDING_PROVIDER: provider,
    EMBEDDING_MODEL: env.BENCH_EMBEDDING_MODEL ?? "",
    EMBEDDING_BASE_URL: provider === "openai" ? (env.OPENAI_BASE_URL ?? "https://api.openai.com/v1") : "",
    EMBEDDING_API_KEY: env.OPENAI_API_KEY ?? "",
    GEMINI_API_KEY: env.GEMINI_API_KEY ?? "",
  });
  const collection = `bench-mrr-${provider}`;
  await ingestPaths({ paths: [FIXTURES], config, collection, log: () => undefined });
  const store = new KnowledgeStore({ url: urls.qdrant ?? "", timeoutMs: 30_000 });
  const embedder = createEmbedder(config);
  const rows = [];
  for (const mode of ["none", "keyword"] as const) {
    const ranks: number[] = [];
    for (const q of queries) {
      const { hits } = await find(
        { query: q.query, collection, using: "", limit: 5, rerank: mode },
        { config, store, embedder },
      );
      ranks.push(
        rank(
          hits.map((h) => String(h.payload.section ?? "")),
          q.relevant,
        ),
      );
    }
    rows.push(summary(`${embedder.provider}:${embedder.model}`, mode, ranks));
  }
  return rows;
}

const section: BenchSection = {
  name: "knowledge",
  async run(stack) {
    const client = await stack.client("/rag/mcp");
    const rows = [];
    for (const chunks of [1_000, 10_000]) {
      const collection = `bench-${chunks}`;
      await fill(stack, collection, chunks);
      for (const mode of ["none", "keyword", "cross-encoder"] as const)
        rows.push(await latency(client, collection, chunks, mode));
    }
    table(
      "qdrant-find latency by stage (fake embedder + fake Qdrant on loopback; stage times from workerd's clock)",
      rows,
    );
    table("keyword scorer CPU", [keywordCpu()]);

    const queries = JSON.parse(readFileSync(`${FIXTURES}/queries.json`, "utf8")) as Labelled[];
    const urls = Object.fromEntries(Object.entries(stack.fakes).map(([k, f]) => [k, f.url]));
    const config = loadConfig(envForFakes(urls));
    const lines: string[] = [];
    await ingestPaths({ paths: [FIXTURES], config, collection: "bench-mrr", log: (l) => lines.push(l) });
    console.log(`\n(ingest: ${lines.at(-1) ?? ""})`);
    const mrr = await mrrViaTool(client, queries, "bench-mrr");
    try {
      mrr.push(...(await mrrReal(stack, queries)));
    } catch (err) {
      createLogger("warn").warn("real-provider MRR skipped", { error: String(err) });
    }
    if (!process.env.GEMINI_API_KEY && !process.env.OPENAI_API_KEY) {
      console.log("(set GEMINI_API_KEY or OPENAI_API_KEY to add a real embedder to the MRR table)");
    }
    table(`MRR@5 on ${queries.length} labelled queries (test/fixtures/knowledge)`, mrr);
  },
};

export default section;
