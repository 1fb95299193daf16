/** @module Retry with full-jitter exponential backoff and a `shouldRetry` hook; the only retry loop in the project. */

export interface RetryOptions {
  /** Total attempts including the first (default 3). */
  maxAttempts?: number;
  /** Base delay in ms (default 100). */
  baseDelayMs?: number;
  /** Cap for one delay in ms (default 3000). */
  maxDelayMs?: number;
  /** Decide whether `err` is worth another attempt (default: always). */
  shouldRetry?: (err: unknown, nextAttempt: number) => boolean;
  /** Stop waiting when aborted. */
  signal?: AbortSignal;
  /** Override the computed delay, e.g. from a Retry-After header; return undefined to keep it. */
  delayFor?: (err: unknown, attempt: number) => number | undefined;
}

/** Full-jitter backoff: a random delay in [0, min(max, base·2^attempt)]. */
export function jitterBackoff(attempt: number, baseDelayMs: number, maxDelayMs: number): number {
  const cap = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
  return Math.floor(Math.random() * cap);
}

/** Sleep for `ms`, rejecting early with the abort reason when `signal` fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Run `fn` until it succeeds, `shouldRetry` says no, or attempts run out; rethrows the last error.
 * @example await withRetry(() => getJson(url), { maxAttempts: 3, shouldRetry: isTransient })
 */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const maxAttempts = opts.maxAttempts ?? 3;
  const base = opts.baseDelayMs ?? 100;
  const max = opts.maxDelayMs ?? 3000;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError("maxAttempts must be an integer ≥ 1");
  if (base < 0 || max < base) throw new RangeError("need 0 ≤ baseDelayMs ≤ maxDelayMs");
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      if (attempt >= maxAttempts || opts.signal?.aborted) throw err;
      if (opts.shouldRetry && !opts.shouldRetry(err, attempt + 1)) throw err;
      const delay = opts.delayFor?.(err, attempt) ?? jitterBackoff(attempt, base, max);
      await sleep(delay, opts.signal);
    }
  }
}
