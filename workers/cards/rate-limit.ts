/**
 * @module Politeness towards YGOPRODeck: a sliding-window limiter shared by every call in this
 * isolate (their limit is 20 requests per second, and crossing it blocks the IP for an hour),
 * and the remembered "blocked" state after the API refused us, so we stop asking at once.
 */
import { sleep } from "../../shared/http/retry";

export interface LimiterOptions {
  /** Requests allowed per window. */
  limit: number;
  /** Window length in ms. */
  windowMs: number;
  /** Clock and sleep, injectable for tests. */
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Sliding-window limiter that counts from when a request *ended*: the request `limit` places
 * later starts no earlier than `windowMs` after the earlier one got its answer. The server sees
 * each request somewhere between its start and its answer, so however the network delays or
 * bunches them, it never sees more than `limit` in a window. Slots are taken synchronously, so
 * concurrent callers queue in call order.
 */
export class SlidingWindowLimiter {
  /** The last `limit` slots; each resolves with the time its request got an answer. */
  private readonly slots: Promise<number>[] = [];
  private readonly now: () => number;
  private readonly wait: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(private readonly opts: LimiterOptions) {
    this.now = opts.now ?? Date.now;
    this.wait = opts.sleep ?? sleep;
  }

  /**
   * Wait for a slot, then run `request`; its answer (or failure) frees the slot. Rejects with the
   * abort reason when `signal` fires while waiting.
   */
  async run<T>(request: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const prior = this.slots.length >= this.opts.limit ? this.slots[this.slots.length - this.opts.limit] : undefined;
    let release: (at: number) => void = () => undefined;
    this.slots.push(new Promise<number>((resolve) => (release = resolve)));
    if (this.slots.length > this.opts.limit) this.slots.shift();
    try {
      if (prior) {
        const delay = (await prior) + this.opts.windowMs - this.now();
        if (delay > 0) await this.wait(delay, signal);
      }
      return await request();
    } finally {
      release(this.now());
    }
  }
}

/** Remembers until when an upstream refuses us. */
export class BlockState {
  private until = 0;
  constructor(private readonly now: () => number = Date.now) {}

  /** Stop calling for `ms` (never shortens an existing block). */
  block(ms: number): void {
    this.until = Math.max(this.until, this.now() + ms);
  }

  /** The time the block ends, or undefined when not blocked. */
  blockedUntil(): Date | undefined {
    return this.until > this.now() ? new Date(this.until) : undefined;
  }
}

/** A window slightly longer than a second, for clock differences between us and them. */
const WINDOW_MS = 1050;

interface Politeness {
  limiter: SlidingWindowLimiter;
  block: BlockState;
  rps: number;
}

const byUpstream = new Map<string, Politeness>();

/** The limiter and block state for one API base URL (shared by every call in this isolate). */
export function politenessFor(baseUrl: string, rps: number): Politeness {
  let p = byUpstream.get(baseUrl);
  if (!p || p.rps !== rps) {
    p = { limiter: new SlidingWindowLimiter({ limit: rps, windowMs: WINDOW_MS }), block: new BlockState(), rps };
    byUpstream.set(baseUrl, p);
  }
  return p;
}
