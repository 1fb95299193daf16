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
 * Sliding-window limiter: `acquire()` resolves when a request may start. Slots are reserved
 * synchronously, so concurrent callers queue in call order and any window of `windowMs` holds at
 * most `limit` starts.
 */
export class SlidingWindowLimiter {
  /** Reserved start times, ascending. */
  private readonly starts: number[] = [];
  private readonly now: () => number;
  private readonly wait: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(private readonly opts: LimiterOptions) {
    this.now = opts.now ?? Date.now;
    this.wait = opts.sleep ?? sleep;
  }

  /** Wait for a slot (rejects with the abort reason when `signal` fires; the slot stays used). */
  async acquire(signal?: AbortSignal): Promise<void> {
    const now = this.now();
    const { limit, windowMs } = this.opts;
    while (this.starts.length > 0 && (this.starts[0] ?? now) <= now - windowMs) this.starts.shift();
    let at = now;
    const bound = this.starts[this.starts.length - limit];
    if (bound !== undefined) at = Math.max(now, bound + windowMs);
    this.starts.push(at);
    if (at > now) await this.wait(at - now, signal);
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

/** A window slightly longer than a second, so clock jitter never lets a 21st request through. */
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
