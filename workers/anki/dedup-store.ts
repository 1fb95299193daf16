/**
 * @module The dedup_key ledger: a SQLite-backed Durable Object that claims keys before a note is
 * sent to Anki, records the note id after, and so survives Worker restarts (see docs/anki.md).
 */
import { DurableObject } from "cloudflare:workers";

/** What the ledger knows about one key when a call claims it. */
export type Claim =
  /** A note was added with this key. */
  | { state: "done"; noteId: number }
  /** Another call holds the key right now (its lease has not expired). */
  | { state: "busy" }
  /** This call now holds the key; it must still search Anki for a note from an earlier, unfinished attempt. */
  | { state: "claimed" };

type Row = { key: string; state: string; note_id: number | null; owner: string | null; lease_until: number };

/** One ledger for the whole Worker (`idFromName("anki-dedup")`); every call serialises through it. */
export class AnkiDedup extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(
      `CREATE TABLE IF NOT EXISTS dedup (
         key TEXT PRIMARY KEY,
         state TEXT NOT NULL,
         note_id INTEGER,
         owner TEXT,
         lease_until INTEGER NOT NULL DEFAULT 0,
         updated_at INTEGER NOT NULL
       )`,
    );
  }

  private row(key: string): Row | undefined {
    return this.ctx.storage.sql.exec<Row>("SELECT * FROM dedup WHERE key = ?", key).toArray()[0];
  }

  /**
   * Claim `keys` for `owner` for `leaseMs`. A key that is done, or held by a live lease of another
   * owner, is reported instead of claimed. An expired or released pending key is claimed again.
   */
  claim(keys: string[], owner: string, leaseMs: number): Record<string, Claim> {
    const now = Date.now();
    const out: Record<string, Claim> = {};
    for (const key of new Set(keys)) {
      const row = this.row(key);
      if (row?.state === "done" && row.note_id !== null) {
        out[key] = { state: "done", noteId: row.note_id };
      } else if (row && row.owner !== owner && row.lease_until > now) {
        out[key] = { state: "busy" };
      } else {
        this.ctx.storage.sql.exec(
          `INSERT INTO dedup (key, state, note_id, owner, lease_until, updated_at) VALUES (?, 'pending', NULL, ?, ?, ?)
           ON CONFLICT(key) DO UPDATE SET state = 'pending', note_id = NULL, owner = excluded.owner,
             lease_until = excluded.lease_until, updated_at = excluded.updated_at`,
          key,
          owner,
          now + leaseMs,
          now,
        );
        out[key] = { state: "claimed" };
      }
    }
    return out;
  }

  /**
   * Take over keys recorded as done whose note no longer exists in Anki (deleted by the user), so
   * the caller may add them again. Only keys still done with the same note id are taken.
   */
  reclaim(entries: { key: string; noteId: number }[], owner: string, leaseMs: number): string[] {
    const now = Date.now();
    const taken: string[] = [];
    for (const { key, noteId } of entries) {
      const row = this.row(key);
      if (row?.state !== "done" || row.note_id !== noteId) continue;
      this.ctx.storage.sql.exec(
        "UPDATE dedup SET state = 'pending', note_id = NULL, owner = ?, lease_until = ?, updated_at = ? WHERE key = ?",
        owner,
        now + leaseMs,
        now,
        key,
      );
      taken.push(key);
    }
    return taken;
  }

  /** Record the notes added (or found in Anki) for keys. */
  complete(entries: { key: string; noteId: number }[]): void {
    const now = Date.now();
    for (const { key, noteId } of entries) {
      this.ctx.storage.sql.exec(
        `INSERT INTO dedup (key, state, note_id, owner, lease_until, updated_at) VALUES (?, 'done', ?, NULL, 0, ?)
         ON CONFLICT(key) DO UPDATE SET state = 'done', note_id = excluded.note_id, owner = NULL, lease_until = 0,
           updated_at = excluded.updated_at`,
        key,
        noteId,
        now,
      );
    }
  }

  /**
   * Give keys back. `forget`: nothing reached Anki, so the key is free again. `unknown`: the add
   * may or may not have landed (timeout); the row stays pending with its lease ended, so the next
   * call searches Anki for the dedup tag before adding.
   */
  release(keys: string[], owner: string, mode: "forget" | "unknown"): void {
    for (const key of keys) {
      if (mode === "forget") {
        this.ctx.storage.sql.exec("DELETE FROM dedup WHERE key = ? AND owner = ? AND state = 'pending'", key, owner);
      } else {
        this.ctx.storage.sql.exec(
          "UPDATE dedup SET owner = NULL, lease_until = 0, updated_at = ? WHERE key = ? AND owner = ? AND state = 'pending'",
          Date.now(),
          key,
          owner,
        );
      }
    }
  }

  /** The ledger entry of a key (tests and diagnostics). */
  lookup(key: string): { state: string; noteId: number | null } | null {
    const row = this.row(key);
    return row ? { state: row.state, noteId: row.note_id } : null;
  }
}
