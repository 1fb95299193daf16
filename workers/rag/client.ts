/**
 * @module Qdrant access through @qdrant/js-client-rest (checked under workerd and Node): the
 * client's quirks handled once (no compatibility GET / per call, the URL's own port instead of an
 * appended 6333, the path kept as prefix), and every failure turned into a reason a person can
 * act on (see qdrant-errors.ts).
 */
import { QdrantClient } from "@qdrant/js-client-rest";
import { withRetry } from "../../shared/http/retry";
import { describeQdrantError, isMissingCollection, isTransientQdrant } from "./qdrant-errors";

/** How to reach Qdrant. */
export interface QdrantSettings {
  url: string;
  apiKey?: string | undefined;
  timeoutMs: number;
}

/** A point as qdrant-find renders it. */
export interface ScoredHit {
  id: string | number;
  score: number;
  payload: Record<string, unknown>;
}

/** A point to write. */
export interface PointInput {
  id: string;
  vector: number[];
  payload: Record<string, unknown>;
}

/** A filter on payload fields, e.g. `{source: "docs/a.md"}` → every condition must match. */
export type SimpleFilter = Record<string, string | number | boolean>;

/** Qdrant's filter JSON for a simple equality filter (undefined when empty). */
export function toQdrantFilter(filter: SimpleFilter | undefined, exceptIds?: readonly string[]) {
  const must = Object.entries(filter ?? {}).map(([key, value]) => ({ key, match: { value } }));
  const mustNot = exceptIds?.length ? [{ has_id: [...exceptIds] }] : [];
  if (must.length === 0 && mustNot.length === 0) return undefined;
  return { ...(must.length ? { must } : {}), ...(mustNot.length ? { must_not: mustNot } : {}) };
}

/** Make the client, honouring the URL as written (the client would append :6333 to a portless URL). */
export function makeClient(s: QdrantSettings): QdrantClient {
  const u = new URL(s.url);
  const port = u.port ? Number(u.port) : u.protocol === "https:" ? 443 : 80;
  const prefix = u.pathname.replace(/\/+$/, "");
  return new QdrantClient({
    url: `${u.protocol}//${u.hostname}`,
    port,
    ...(prefix ? { prefix } : {}),
    // As a header rather than `apiKey`: the client would print a warning on every call over http.
    ...(s.apiKey ? { headers: { "api-key": s.apiKey } } : {}),
    timeout: s.timeoutMs,
    checkCompatibility: false,
  });
}

/** The operations the knowledge tools and the ingest script need, with actionable errors. */
export class KnowledgeStore {
  readonly client: QdrantClient;
  constructor(readonly settings: QdrantSettings) {
    this.client = makeClient(settings);
  }

  private async run<T>(collection: string, using: string, fn: () => Promise<T>, retry = false): Promise<T> {
    try {
      return retry ? await withRetry(fn, { maxAttempts: 2, shouldRetry: isTransientQdrant }) : await fn();
    } catch (err) {
      throw await describeQdrantError(err, { store: this, collection, using });
    }
  }

  /** Nearest points to `vector` (a read: retried once on network errors and 5xx). */
  query(
    collection: string,
    opts: { vector: number[]; using: string; limit: number; filter?: SimpleFilter; scoreThreshold?: number },
  ): Promise<ScoredHit[]> {
    return this.run(
      collection,
      opts.using,
      async () => {
        const filter = toQdrantFilter(opts.filter);
        const res = await this.client.query(collection, {
          query: opts.vector,
          ...(opts.using ? { using: opts.using } : {}),
          limit: opts.limit,
          with_payload: true,
          ...(filter ? { filter } : {}),
          ...(opts.scoreThreshold !== undefined ? { score_threshold: opts.scoreThreshold } : {}),
        });
        return (res.points ?? []).map((p) => ({
          id: p.id,
          score: p.score,
          payload: (p.payload ?? {}) as Record<string, unknown>,
        }));
      },
      true,
    );
  }

  /** Vector names and sizes of a collection ("" = the unnamed vector); undefined when it does not exist. */
  async vectors(collection: string): Promise<Map<string, number> | undefined> {
    const exists = await this.run(collection, "", () => this.client.collectionExists(collection), true);
    if (!exists.exists) return undefined;
    const info = await this.run(collection, "", () => this.client.getCollection(collection), true);
    const v = info.config.params.vectors as unknown;
    const out = new Map<string, number>();
    if (v && typeof v === "object" && "size" in v) out.set("", Number((v as { size: unknown }).size));
    else
      for (const [k, p] of Object.entries((v ?? {}) as Record<string, { size?: number }>)) out.set(k, Number(p.size));
    return out;
  }

  /** Create the collection (cosine, vector `using` of `size`) and a `source` index, unless it exists. */
  async ensureCollection(collection: string, using: string, size: number): Promise<boolean> {
    const known = await this.vectors(collection);
    if (known) return false;
    const params = { size, distance: "Cosine" as const };
    await this.run(collection, using, async () => {
      try {
        await this.client.createCollection(collection, { vectors: using ? { [using]: params } : params });
      } catch (err) {
        if ((err as { status?: unknown }).status !== 409) throw err; // created meanwhile: fine
      }
    });
    await this.run(collection, using, () =>
      this.client.createPayloadIndex(collection, { field_name: "source", field_schema: "keyword", wait: true }),
    );
    return true;
  }

  /**
   * Write points (waits until applied). With `createIfMissing`, a missing collection is created
   * (sized from the first vector) and the write repeated: one round trip in the common case.
   * @returns whether the collection was created.
   */
  async upsert(
    collection: string,
    using: string,
    points: readonly PointInput[],
    createIfMissing = false,
  ): Promise<boolean> {
    if (points.length === 0) return false;
    const write = () =>
      this.client.upsert(collection, {
        wait: true,
        points: points.map((p) => ({ id: p.id, vector: using ? { [using]: p.vector } : p.vector, payload: p.payload })),
      });
    try {
      await write();
      return false;
    } catch (err) {
      if (!createIfMissing || !isMissingCollection(err))
        throw await describeQdrantError(err, { store: this, collection, using });
    }
    const created = await this.ensureCollection(collection, using, points[0]?.vector.length ?? 0);
    await this.run(collection, using, write);
    return created;
  }

  /** Every point matching `filter`, with the given payload keys (pages through scroll). */
  async scroll(collection: string, filter: SimpleFilter, keys: string[]): Promise<ScoredHit[]> {
    const out: ScoredHit[] = [];
    let offset: string | number | undefined;
    const qf = toQdrantFilter(filter);
    for (;;) {
      const page = await this.run(
        collection,
        "",
        () =>
          this.client.scroll(collection, {
            ...(qf ? { filter: qf } : {}),
            limit: 256,
            with_payload: keys,
            with_vector: false,
            ...(offset !== undefined ? { offset } : {}),
          }),
        true,
      );
      for (const p of page.points)
        out.push({ id: p.id, score: 0, payload: (p.payload ?? {}) as Record<string, unknown> });
      const next = page.next_page_offset;
      if (next === null || next === undefined || (typeof next !== "string" && typeof next !== "number")) return out;
      offset = next;
    }
  }

  /** Delete points by id. */
  async delete(collection: string, ids: readonly (string | number)[]): Promise<void> {
    if (ids.length === 0) return;
    await this.run(collection, "", () => this.client.delete(collection, { wait: true, points: [...ids] }));
  }
}
