import { beforeEach, describe, expect, it } from "vitest";
import { chunkDocument, chunkMarkdown, splitText } from "../../workers/rag/chunk";
import { KnowledgeStore } from "../../workers/rag/client";
import { createEmbedder } from "../../workers/rag/embed";
import { stableId } from "../../workers/rag/ids";
import { type IngestDeps, ingestDocument, pruneSources } from "../../workers/rag/ingest";
import { toolContext } from "../helpers/context";
import { fakeControl, fakeStats, fakeUrl } from "../helpers/mcp";
import { call, count, qdrant, textOf } from "./seed";

const DOC = `Intro line before any heading.

# Guide

## Install
Run \`npm install\`.

\`\`\`sh
# not a heading: a shell comment
npm run dev
\`\`\`

## Use
Call the tool.

## Use
A second section with the same title.
`;

function deps(collection = "kb", log: string[] = []): IngestDeps {
  const { config } = toolContext();
  return {
    store: new KnowledgeStore({ url: fakeUrl("qdrant"), timeoutMs: 5000 }),
    embedder: createEmbedder(config),
    collection,
    using: "",
    batchSize: 2,
    maxChars: 400,
    onProgress: (m) => log.push(m),
  };
}

async function payloads(collection: string): Promise<Record<string, unknown>[]> {
  const r = await qdrant("POST", `/collections/${collection}/points/scroll`, { limit: 1000, with_payload: true });
  return (r.result as { points: { payload: Record<string, unknown> }[] }).points.map((p) => p.payload);
}

beforeEach(async () => {
  await fakeControl("qdrant", null);
  await fakeControl("embeddings", null);
});

describe("chunking", () => {
  it("splits Markdown by headings into section paths, ignoring # inside code fences", () => {
    const chunks = chunkMarkdown(DOC, "guide", 400);
    expect(chunks.map((c) => [c.section, c.ordinal])).toEqual([
      ["guide", 0],
      ["Guide / Install", 0],
      ["Guide / Use", 0],
      ["Guide / Use", 1],
    ]);
    expect(chunks[1]?.content).toContain("# not a heading: a shell comment");
  });

  it("keeps every chunk within the size bound, at paragraph and sentence boundaries", () => {
    const text = Array.from({ length: 40 }, (_, i) => `Sentence ${i} is about embeddings and chunks.`).join(" ");
    const pieces = splitText(`${text}\n\n${"x".repeat(1000)}`, 200);
    expect(pieces.length).toBeGreaterThan(5);
    for (const p of pieces) expect(p.length).toBeLessThanOrEqual(200);
    expect(pieces[0]).toMatch(/\.$/);
  });

  it("uses the file name as section for plain text", () => {
    expect(chunkDocument("notes/todo.txt", "one\n\ntwo", 400)).toEqual([
      { section: "todo", content: "one\n\ntwo", ordinal: 0 },
    ]);
  });

  it("derives stable UUIDs from source, section and ordinal", async () => {
    const a = await stableId("docs/a.md", "Setup", "0");
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await stableId("docs/a.md", "Setup", "0")).toBe(a);
    expect(await stableId("docs/a.md", "Setup", "1")).not.toBe(a);
  });
});

describe("ingest (the core of npm run ingest)", () => {
  it("writes every chunk once, then re-ingesting the same file changes nothing and embeds nothing", async () => {
    const log: string[] = [];
    const first = await ingestDocument({ source: "docs/guide.md", text: DOC }, deps("kb", log));
    expect(first).toEqual({
      source: "docs/guide.md",
      chunks: 4,
      written: 4,
      unchanged: 0,
      deleted: 0,
      createdCollection: true,
    });
    expect(log).toEqual(["embedded 2/4", "embedded 4/4"]);
    expect(await count("kb")).toBe(4);
    const p = (await payloads("kb")).find((x) => x.section === "Guide / Install");
    expect(p).toMatchObject({ source: "docs/guide.md", content: expect.stringContaining("npm install"), chunk: 0 });

    await fakeControl("embeddings", null);
    const before = (await fakeStats("qdrant")).requests;
    const again = await ingestDocument({ source: "docs/guide.md", text: DOC }, deps());
    expect((await fakeStats("qdrant")).requests - before).toBe(1); // one scroll, nothing to write
    expect(again).toMatchObject({ chunks: 4, written: 0, unchanged: 4, deleted: 0, createdCollection: false });
    expect(await count("kb")).toBe(4);
    expect((await fakeStats("embeddings")).requests).toBe(0);
  });

  it("updates a changed section in place and deletes chunks that no longer exist", async () => {
    await ingestDocument({ source: "docs/guide.md", text: DOC }, deps());
    await ingestDocument({ source: "docs/other.md", text: "# Other\nKeep me." }, deps());
    const edited = DOC.replace("Call the tool.", "Call the tool twice.").replace(
      "## Use\nA second section with the same title.\n",
      "",
    );
    const res = await ingestDocument({ source: "docs/guide.md", text: edited }, deps());
    expect(res).toMatchObject({ chunks: 3, written: 1, unchanged: 2, deleted: 1 });
    const all = await payloads("kb");
    expect(all).toHaveLength(4);
    expect(all.filter((x) => x.source === "docs/guide.md").map((x) => x.content)).toContain("Call the tool twice.");
    expect(all.some((x) => x.source === "docs/other.md")).toBe(true);
  });

  it("re-embeds everything when the embedding model changes", async () => {
    await ingestDocument({ source: "a.md", text: "# A\ntext" }, deps());
    const { config } = toolContext({ EMBEDDING_MODEL: "fake-embed-256-v2" });
    const res = await ingestDocument(
      { source: "a.md", text: "# A\ntext" },
      { ...deps(), embedder: createEmbedder(config) },
    );
    expect(res).toMatchObject({ written: 1, unchanged: 0, deleted: 0 });
  });

  it("fills a collection qdrant-find can search, with a dimension mismatch reported clearly", async () => {
    await ingestDocument({ source: "docs/guide.md", text: DOC }, deps("knowledge"));
    const found = await call("qdrant-find", { query: "npm install", limit: 1 });
    expect(textOf(found)).toMatch(/^1\. \(score: \d\.\d{3}\) Guide \/ Install\n   Источник: docs\/guide\.md\n/);
    const wrong = await call("qdrant-find", { query: "npm install" }, { EMBEDDING_MODEL: "fake-embed-128" });
    expect(textOf(wrong)).toContain("holds 256-dimensional vectors but the embedding model produced 128");
  });
});

describe("pruning deleted files", () => {
  it("deletes the chunks of sources under the folder that were not ingested this time", async () => {
    const d = deps();
    await ingestDocument({ source: "docs/a.md", text: "# A\none" }, d);
    await ingestDocument({ source: "docs/b.md", text: "# B\ntwo" }, d);
    await ingestDocument({ source: "other/c.md", text: "# C\nthree" }, d);
    const removed = await pruneSources(d.store, "kb", ["docs/"], new Set(["docs/a.md"]));
    expect(removed).toEqual(["docs/b.md"]);
    expect((await payloads("kb")).map((p) => p.source).toSorted()).toEqual(["docs/a.md", "other/c.md"]);
    expect(await pruneSources(d.store, "missing", ["docs/"], new Set())).toEqual([]);
  });
});
