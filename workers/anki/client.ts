/**
 * @module AnkiConnect client: the version-6 envelope, `key` only when configured, `multi` batches,
 * Cloudflare Access headers and upstream errors from shared/http. Reads may be retried; writes never.
 */
import type { Config } from "../../shared/config";
import { UpstreamError } from "../../shared/errors";
import { type Upstream, shownUrl, upstreamJson } from "../../shared/http/client";

/** AnkiConnect API version sent in every envelope (and every `multi` action). */
export const ANKI_VERSION = 6;
const UNREACHABLE_HINT = "is Anki running with AnkiConnect, and is the tunnel up?";

/** One action for `multi` or `invoke`. */
export interface AnkiAction {
  action: string;
  params?: Record<string, unknown>;
}

/** The outcome of one action inside `multi`: a result, or AnkiConnect's error string. */
export type AnkiOutcome<T = unknown> = { ok: true; result: T } | { ok: false; error: string };

/** An AnkiConnect action answered with `error` (HTTP 200, as AnkiConnect always does). */
export class AnkiError extends UpstreamError {
  /** AnkiConnect's own error text, e.g. "model was not found: X". */
  readonly ankiError: string;
  constructor(action: string, ankiError: string) {
    super("Anki", explain(action, ankiError));
    this.ankiError = ankiError;
  }
}

/** A person-readable message for an AnkiConnect error, with the fix when we know it. */
export function explain(action: string, error: string): string {
  if (error === "valid api key must be provided") {
    return "AnkiConnect rejected the API key (valid api key must be provided): set ANKI_CONNECT_API_KEY to the apiKey in AnkiConnect's config, or leave both unset.";
  }
  if (error === "collection is not available") {
    return "Anki is running but no profile is open (collection is not available): open your profile in Anki.";
  }
  if (error === "unsupported action") {
    return `AnkiConnect does not support "${action}" (unsupported action): update the AnkiConnect add-on.`;
  }
  return `Anki refused ${action}: ${error}`;
}

type Envelope = { result: unknown; error: unknown };

function isEnvelope(v: unknown): v is Envelope {
  return typeof v === "object" && v !== null && !Array.isArray(v) && "result" in v && "error" in v;
}

/** Talks to one AnkiConnect endpoint for the duration of a tool call. */
export class AnkiClient {
  /** AnkiConnect HTTP requests sent by this client (round trips are the cost over a tunnel). */
  requests = 0;
  private readonly up: Upstream;
  private readonly key: string | undefined;
  private readonly timeoutMs: number;
  private readonly signal: AbortSignal | undefined;

  constructor(config: Config, fetchImpl: typeof fetch, signal?: AbortSignal) {
    this.up = {
      name: "Anki",
      baseUrl: config.ANKI_CONNECT_URL ?? "http://127.0.0.1:8765",
      access: { clientId: config.CF_ACCESS_CLIENT_ID, clientSecret: config.CF_ACCESS_CLIENT_SECRET },
      unreachableHint: UNREACHABLE_HINT,
      fetch: fetchImpl,
    };
    this.key = config.ANKI_CONNECT_API_KEY;
    this.timeoutMs = config.ANKI_TIMEOUT_MS;
    this.signal = signal;
  }

  /** The envelope of one action; `key` is left out unless configured (AnkiConnect rejects an unexpected key). */
  envelope(a: AnkiAction): Record<string, unknown> {
    const env: Record<string, unknown> = { action: a.action, version: ANKI_VERSION, params: a.params ?? {} };
    if (this.key !== undefined) env.key = this.key;
    return env;
  }

  private async send(body: Record<string, unknown>, read: boolean): Promise<Envelope> {
    this.requests++;
    const opts: Parameters<typeof upstreamJson>[1] = {
      method: "POST",
      path: "/",
      json: body,
      timeoutMs: this.timeoutMs,
      retry: read ? { maxAttempts: 3, baseDelayMs: 200 } : false,
    };
    if (this.signal) opts.signal = this.signal;
    const data = await upstreamJson(this.up, opts);
    if (isEnvelope(data)) return data;
    if (data && typeof data === "object" && "apiVersion" in data) {
      throw new UpstreamError(
        "Anki",
        "AnkiConnect received an empty request body: a proxy in between dropped it (with cloudflared set originRequest.disableChunkedEncoding: true).",
      );
    }
    throw new UpstreamError(
      "Anki",
      `Anki answered without an AnkiConnect envelope; check that ${shownUrl(this.up.baseUrl)} is AnkiConnect.`,
    );
  }

  /**
   * Run one action and return its result.
   * @throws AnkiError when AnkiConnect answers with `error`; UpstreamError when it cannot be reached.
   */
  async invoke<T = unknown>(action: string, params?: Record<string, unknown>, opts: { read?: boolean } = {}) {
    const env = await this.send(this.envelope({ action, params }), opts.read ?? false);
    if (env.error !== null && env.error !== undefined) throw new AnkiError(action, String(env.error));
    return env.result as T;
  }

  /**
   * Run several actions in one request (`multi`, each with its own version and key) and return
   * each outcome in order. One failing action does not fail the others.
   */
  async multi(actions: readonly AnkiAction[], opts: { read?: boolean } = {}): Promise<AnkiOutcome[]> {
    if (actions.length === 0) return [];
    const results = await this.invoke<unknown[]>(
      "multi",
      { actions: actions.map((a) => this.envelope(a)) },
      { read: opts.read ?? false },
    );
    if (!Array.isArray(results) || results.length !== actions.length) {
      throw new UpstreamError("Anki", "AnkiConnect answered multi with the wrong number of results.");
    }
    return results.map((r): AnkiOutcome => {
      if (!isEnvelope(r)) return { ok: true, result: r };
      if (r.error !== null && r.error !== undefined) return { ok: false, error: String(r.error) };
      return { ok: true, result: r.result };
    });
  }
}

/** The result of an outcome, or an AnkiError naming the action. */
export function unwrap<T>(action: string, o: AnkiOutcome | undefined): T {
  if (!o) throw new UpstreamError("Anki", `AnkiConnect gave no answer for ${action}.`);
  if (!o.ok) throw new AnkiError(action, o.error);
  return o.result as T;
}
