/**
 * @module The job store: one SQLite-backed Durable Object per ComfyUI job. It keeps the record
 * durably (a Worker restart loses nothing) and lets a tool call wait for completion without
 * polling: `wait()` resolves the moment the queue consumer writes a final status.
 */
import { DurableObject } from "cloudflare:workers";
import { type JobRecord, isTerminal } from "./job";

const KEY = "job";

/** The Durable Object class behind the COMFY_JOBS binding. */
export class ComfyJobStore extends DurableObject<Env> {
  private waiters = new Set<(rec: JobRecord) => void>();

  /** Store a new job; a second create with the same id keeps the first record. */
  async create(rec: JobRecord): Promise<void> {
    if (await this.ctx.storage.get<JobRecord>(KEY)) return;
    await this.ctx.storage.put(KEY, rec);
  }

  /** The record, or null for an unknown id. */
  async get(): Promise<JobRecord | null> {
    return (await this.ctx.storage.get<JobRecord>(KEY)) ?? null;
  }

  /**
   * Merge `patch` into the record. A final record never changes again (a redelivered message
   * cannot undo a result); `pollSeq` only moves forward. Returns the stored record.
   */
  async update(patch: Partial<Omit<JobRecord, "id">>): Promise<JobRecord | null> {
    const cur = await this.get();
    if (!cur) return null;
    if (isTerminal(cur.status)) return cur;
    const next: JobRecord = { ...cur, ...patch, updatedAt: Date.now() };
    next.pollSeq = Math.max(cur.pollSeq, patch.pollSeq ?? 0);
    await this.ctx.storage.put(KEY, next);
    if (isTerminal(next.status)) {
      for (const resolve of this.waiters) resolve(next);
      this.waiters.clear();
    }
    return next;
  }

  /** Resolve with the record once it is final, or after `ms` with the record as it is then. */
  async wait(ms: number): Promise<JobRecord | null> {
    const cur = await this.get();
    if (!cur || isTerminal(cur.status) || ms <= 0) return cur;
    return new Promise<JobRecord | null>((resolve) => {
      const done = (rec: JobRecord | null) => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve(rec);
      };
      const timer = setTimeout(() => void this.get().then(done, () => done(cur)), ms);
      this.waiters.add(done);
    });
  }
}

/** The store's RPC surface, typed plainly (records are JSON data, which RPC carries as is). */
export interface JobStoreApi {
  create(rec: JobRecord): Promise<void>;
  get(): Promise<JobRecord | null>;
  update(patch: Partial<Omit<JobRecord, "id">>): Promise<JobRecord | null>;
  wait(ms: number): Promise<JobRecord | null>;
}

/** The store of job `id`. */
export function jobStore(env: Env, id: string): JobStoreApi {
  return env.COMFY_JOBS.get(env.COMFY_JOBS.idFromName(id)) as unknown as JobStoreApi;
}
