/**
 * @module Ingestion core, shared by `npm run ingest` (Node) and tests (workerd): chunk a document,
 * skip chunks whose text and model did not change, embed the rest in batches, upsert them with
 * stable ids, and delete the document's chunks that no longer exist. Re-running never duplicates.
 */
import { type Chunk, chunkDocument } from "./chunk";
import type { KnowledgeStore, PointInput } from "./client";
import { type Embedder, embedInBatches } from "./embed";
import { contentHash, stableId } from "./ids";
import { isMissingCollection } from "./qdrant-errors";

/** Where and how to write. */
export interface IngestDeps {
  store: KnowledgeStore;
  embedder: Embedder;
  collection: string;
  /** Vector name ("" = unnamed). */
  using: string;
  batchSize: number;
  maxChars: number;
  /** Progress lines for people (the CLI prints them). */
  onProgress?: (message: string) => void;
}

/** What happened to one document. */
export interface IngestStats {
  source: string;
  chunks: number;
  /** Chunks embedded and written (new or changed). */
  written: number;
  unchanged: number;
  /** Chunks of an earlier version that no longer exist, deleted. */
  deleted: number;
  createdCollection: boolean;
}

/** The text that gets embedded for a chunk: its section title gives context. */
export function embedText(c: Pick<Chunk, "section" | "content">): string {
  return c.section ? `${c.section}\n\n${c.content}` : c.content;
}

/** Embed texts and write them as points; creates the collection (sized from the first vector) when the write finds it missing. */
export async function writePoints(
  deps: Omit<IngestDeps, "maxChars">,
  items: readonly { id: string; text: string; payload: Record<string, unknown> }[],
): Promise<{ createdCollection: boolean }> {
  if (items.length === 0) return { createdCollection: false };
  const vectors = await embedInBatches(
    deps.embedder,
    items.map((i) => i.text),
    "document",
    deps.batchSize,
    (done, total) => deps.onProgress?.(`embedded ${done}/${total}`),
  );
  const points: PointInput[] = items.map((item, i) => ({
    id: item.id,
    vector: vectors[i] ?? [],
    payload: item.payload,
  }));
  let createdCollection = false;
  for (let i = 0; i < points.length; i += 128) {
    const created = await deps.store.upsert(deps.collection, deps.using, points.slice(i, i + 128), i === 0);
    createdCollection ||= created;
  }
  return { createdCollection };
}

/** Ingest one document (`source` is its stable name, e.g. a relative path). */
export async function ingestDocument(doc: { source: string; text: string }, deps: IngestDeps): Promise<IngestStats> {
  const { source } = doc;
  const model = `${deps.embedder.provider}:${deps.embedder.model}`;
  const chunks = chunkDocument(source, doc.text, deps.maxChars);
  const prepared = await Promise.all(
    chunks.map(async (c) => ({
      ...c,
      id: await stableId(source, c.section, String(c.ordinal)),
      hash: await contentHash(model, c.section, c.content),
    })),
  );
  const existing = await deps.store.scroll(deps.collection, { source }, ["hash"]).catch((err: unknown) => {
    if (isMissingCollection(err)) return [];
    throw err;
  });
  const known = new Map(existing.map((p) => [String(p.id), p.payload.hash]));
  const changed = prepared.filter((p) => known.get(p.id) !== p.hash);
  const { createdCollection } = await writePoints(
    deps,
    changed.map((p) => ({
      id: p.id,
      text: embedText(p),
      payload: { section: p.section, source, content: p.content, chunk: p.ordinal, hash: p.hash },
    })),
  );
  const keep = new Set(prepared.map((p) => p.id));
  const stale = existing.map((p) => p.id).filter((id) => !keep.has(String(id)));
  await deps.store.delete(deps.collection, stale);
  return {
    source,
    chunks: prepared.length,
    written: changed.length,
    unchanged: prepared.length - changed.length,
    deleted: stale.length,
    createdCollection,
  };
}

/**
 * Delete the chunks of documents that are gone: every point whose `source` starts with one of
 * `prefixes` (e.g. "docs/") but is not in `keep`. Returns the sources removed.
 */
export async function pruneSources(
  store: KnowledgeStore,
  collection: string,
  prefixes: readonly string[],
  keep: ReadonlySet<string>,
): Promise<string[]> {
  if ((await store.vectors(collection)) === undefined) return [];
  const points = await store.scroll(collection, {}, ["source"]);
  const gone = new Map<string, (string | number)[]>();
  for (const p of points) {
    const source = typeof p.payload.source === "string" ? p.payload.source : "";
    if (!source || keep.has(source) || !prefixes.some((x) => source.startsWith(x))) continue;
    gone.set(source, [...(gone.get(source) ?? []), p.id]);
  }
  for (const ids of gone.values()) await store.delete(collection, ids);
  return [...gone.keys()].toSorted();
}
