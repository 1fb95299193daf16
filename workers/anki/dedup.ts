/**
 * @module dedup_key for one tool call: claims keys in the ledger (dedup-store.ts), checks Anki in the
 * same `multi` as the call's other reads (notesInfo for recorded notes, findNotes for the dedup
 * tag of unfinished attempts), and records or releases keys when the call ends.
 */
import { ToolError } from "../../shared/errors";
import { sha1Hex } from "../../shared/images";
import type { AnkiAction, AnkiOutcome } from "./client";
import type { AnkiDedup, Claim } from "./dedup-store";

/** Parent tag of the per-key tags written on notes added with a dedup_key. */
export const DEDUP_TAG_PREFIX = "mcp-dedup::";

/** The Anki tag that marks the note added for `key`: a hash, so any key is a valid, search-safe tag. */
export async function dedupTag(key: string): Promise<string> {
  return DEDUP_TAG_PREFIX + (await sha1Hex(new TextEncoder().encode(key))).slice(0, 20);
}

/** What to do with a key after checking Anki. */
export type KeyVerdict =
  | { kind: "add" }
  | { kind: "exists"; noteId: number }
  | { kind: "in_progress" }
  | { kind: "error"; error: string };

/** The ledger's RPC surface, as the tool sees it. */
type LedgerStub = DurableObjectStub<AnkiDedup>;

/** Dedup state of one call. */
export class DedupSession {
  readonly owner = crypto.randomUUID();
  private readonly ns: DurableObjectNamespace<AnkiDedup> | undefined;
  private stub: LedgerStub | undefined;
  private readonly leaseMs: number;
  private claims = new Map<string, Claim>();
  readonly tags = new Map<string, string>();
  /** Keys this call holds and has not yet completed or released. */
  private held = new Set<string>();
  private doneIds: { key: string; noteId: number }[] = [];
  private searched: string[] = [];

  constructor(ns: DurableObjectNamespace<AnkiDedup> | undefined, leaseMs: number) {
    this.ns = ns;
    this.leaseMs = leaseMs;
  }

  /** The ledger, reached only when a call has keys (so a Worker without the binding still adds plain notes). */
  private get ledger(): LedgerStub {
    if (!this.ns) {
      throw new ToolError(
        "dedup_key needs the ANKI_DEDUP Durable Object binding, which this deployment lacks: deploy with the project's wrangler.toml, or leave dedup_key out.",
      );
    }
    this.stub ??= this.ns.get(this.ns.idFromName("anki-dedup"));
    return this.stub;
  }

  /** Claim the keys in the ledger (no Anki request). */
  async claim(keys: readonly string[]): Promise<void> {
    const unique = [...new Set(keys)];
    if (unique.length === 0) return;
    for (const k of unique) this.tags.set(k, await dedupTag(k));
    const claims = await this.ledger.claim(unique, this.owner, this.leaseMs);
    this.claims = new Map(Object.entries(claims));
    for (const [k, c] of this.claims) if (c.state === "claimed") this.held.add(k);
    this.doneIds = [...this.claims].flatMap(([key, c]) => (c.state === "done" ? [{ key, noteId: c.noteId }] : []));
    this.searched = [...this.held];
  }

  /** Reads to put in the call's first `multi`: does each recorded note still exist, did an unfinished attempt land? */
  readActions(): AnkiAction[] {
    const out: AnkiAction[] = [];
    if (this.doneIds.length > 0)
      out.push({ action: "notesInfo", params: { notes: this.doneIds.map((d) => d.noteId) } });
    for (const k of this.searched)
      out.push({ action: "findNotes", params: { query: `tag:${this.tags.get(k) ?? ""}` } });
    return out;
  }

  /** Decide every key from the answers to `readActions()` (same order). */
  async resolve(outcomes: readonly AnkiOutcome[]): Promise<Map<string, KeyVerdict>> {
    const verdicts = new Map<string, KeyVerdict>();
    let i = 0;
    if (this.doneIds.length > 0) {
      const info = outcomes[i++];
      const gone: { key: string; noteId: number }[] = [];
      for (const [j, d] of this.doneIds.entries()) {
        const entry = info?.ok && Array.isArray(info.result) ? (info.result[j] as unknown) : undefined;
        const missing = entry !== undefined && typeof entry === "object" && entry !== null && !("noteId" in entry);
        if (missing) gone.push(d);
        else verdicts.set(d.key, { kind: "exists", noteId: d.noteId });
      }
      if (gone.length > 0) {
        // The user deleted the note: the key may be used again (there is no second note).
        const taken = new Set(await this.ledger.reclaim(gone, this.owner, this.leaseMs));
        for (const d of gone) {
          if (taken.has(d.key)) {
            this.held.add(d.key);
            verdicts.set(d.key, { kind: "add" });
          } else verdicts.set(d.key, { kind: "in_progress" });
        }
      }
    }
    const found: { key: string; noteId: number }[] = [];
    for (const k of this.searched) {
      const o = outcomes[i++];
      if (!o?.ok || !Array.isArray(o.result)) {
        const why = o && !o.ok ? o.error : "no answer";
        verdicts.set(k, {
          kind: "error",
          error: `could not search Anki for an earlier note with this dedup_key (${why})`,
        });
        continue;
      }
      const id = o.result.find((x): x is number => typeof x === "number");
      if (id !== undefined) {
        found.push({ key: k, noteId: id });
        verdicts.set(k, { kind: "exists", noteId: id });
      } else verdicts.set(k, { kind: "add" });
    }
    for (const [k, c] of this.claims) if (c.state === "busy") verdicts.set(k, { kind: "in_progress" });
    if (found.length > 0) await this.complete(found);
    for (const [k, v] of verdicts) if (v.kind === "error") await this.release([k], "unknown");
    return verdicts;
  }

  /** Record added notes. */
  async complete(entries: { key: string; noteId: number }[]): Promise<void> {
    if (entries.length === 0) return;
    await this.ledger.complete(entries);
    for (const e of entries) this.held.delete(e.key);
  }

  /** Release keys: `forget` when nothing reached Anki, `unknown` when an add may have landed. */
  async release(keys: readonly string[], mode: "forget" | "unknown"): Promise<void> {
    const mine = keys.filter((k) => this.held.has(k));
    if (mine.length === 0) return;
    await this.ledger.release(mine, this.owner, mode);
    for (const k of mine) this.held.delete(k);
  }

  /** Release whatever is still held (end of call, error paths). */
  async releaseAll(mode: "forget" | "unknown"): Promise<void> {
    await this.release([...this.held], mode);
  }
}
