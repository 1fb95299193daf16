/**
 * @module The one outbound HTTP helper: timeouts, retries for safe requests, Cloudflare Access
 * headers, `redirect: "manual"` with Access-login detection, and upstream error mapping.
 */
import { UpstreamError } from "../errors";
import { type RetryOptions, withRetry } from "./retry";

export const USER_AGENT = "mcp-tools-worker/0.1 (+https://github.com/)";

/** How to reach one upstream. */
export interface Upstream {
  /** Display name used in messages, e.g. "Anki". */
  name: string;
  /** Base URL without trailing slash (messages show it through `shownUrl`, without credentials). */
  baseUrl: string;
  /** Cloudflare Access service token, sent as CF-Access-Client-Id/Secret when both are set. */
  access?: { clientId?: string | undefined; clientSecret?: string | undefined };
  /** Extra headers (e.g. api-key); never shown in messages. */
  headers?: Record<string, string>;
  /** Hint appended to "not reachable" messages, e.g. "is Anki running with AnkiConnect, and is the tunnel up?". */
  unreachableHint?: string;
  fetch?: typeof fetch;
}

export interface RequestOptions {
  method?: string;
  /** Path appended to baseUrl (may include a query string), or an absolute URL. */
  path?: string;
  /** JSON body (stringified, so Content-Length is always set) or a raw body. */
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** Retries for idempotent requests only (reads). Writes are never retried blindly. */
  retry?: RetryOptions | false;
  signal?: AbortSignal;
  /** Statuses that are returned to the caller instead of thrown (e.g. [400, 404]). */
  acceptStatus?: number[];
}

/**
 * A URL safe to show in messages and logs: no user:password, no query string (webhook and proxy
 * URLs often carry credentials there), no trailing slash.
 */
export function shownUrl(raw: string): string {
  try {
    const u = new URL(raw);
    return `${u.protocol}//${u.host}${u.pathname}`.replace(/\/+$/, "");
  } catch {
    return "(invalid URL)";
  }
}

/** "250 ms" below a second, "15 s" above. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 100) / 10} s`;
}

/** True when an error is worth retrying: network failures, timeouts, 429 and 5xx (not Access rejections). */
export function isTransient(err: unknown): boolean {
  if (!(err instanceof UpstreamError)) return false;
  if (err.status === undefined) return true;
  return err.status === 408 || err.status === 429 || (err.status >= 500 && err.status !== 530);
}

/** Headers for a Cloudflare Access service token, when configured. */
export function accessHeaders(access?: Upstream["access"]): Record<string, string> {
  if (!access?.clientId || !access.clientSecret) return {};
  return { "CF-Access-Client-Id": access.clientId, "CF-Access-Client-Secret": access.clientSecret };
}

function retryAfterMs(res: Response): number | undefined {
  const h = res.headers.get("retry-after");
  if (!h) return undefined;
  const secs = Number(h);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const date = Date.parse(h);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** An UpstreamError carrying the response's Retry-After, for callers that honour it. */
export class HttpStatusError extends UpstreamError {
  readonly retryAfterMs?: number;
  readonly bodyText: string;
  constructor(up: Upstream, res: Response, bodyText: string) {
    super(up.name, `${up.name} answered HTTP ${res.status} ${res.statusText}`.trim(), { status: res.status });
    this.bodyText = bodyText;
    const ra = retryAfterMs(res);
    if (ra !== undefined) this.retryAfterMs = ra;
  }
}

/**
 * Send one request to an upstream and return the Response (status 2xx or in `acceptStatus`).
 * Throws UpstreamError with a message a person can act on: not reachable, timed out, Access
 * rejected the service token, tunnel down (530), origin down (502), or HTTP status.
 */
export async function upstreamFetch(up: Upstream, opts: RequestOptions = {}): Promise<Response> {
  const doFetch = up.fetch ?? fetch;
  const shown = shownUrl(up.baseUrl);
  const url = opts.path && /^https?:\/\//.test(opts.path) ? opts.path : `${up.baseUrl}${opts.path ?? ""}`;
  const headers: Record<string, string> = {
    "User-Agent": USER_AGENT,
    ...accessHeaders(up.access),
    ...up.headers,
    ...opts.headers,
  };
  let body = opts.body;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers["Content-Type"] ??= "application/json";
  }
  const once = async (): Promise<Response> => {
    const timeout = AbortSignal.timeout(opts.timeoutMs ?? 15_000);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    let res: Response;
    try {
      const init: RequestInit = {
        method: opts.method ?? (body === undefined ? "GET" : "POST"),
        headers,
        redirect: "manual",
        signal,
      };
      if (body !== undefined) init.body = body;
      res = await doFetch(url, init);
    } catch (err) {
      if (opts.signal?.aborted) throw new UpstreamError(up.name, `Request to ${up.name} was cancelled`, { cause: err });
      if (timeout.aborted) {
        throw new UpstreamError(
          up.name,
          `${up.name} did not answer within ${formatDuration(opts.timeoutMs ?? 15_000)} at ${shown}`,
          { cause: err, status: 408 },
        );
      }
      const hint = up.unreachableHint ? `: ${up.unreachableHint}` : "";
      throw new UpstreamError(up.name, `${up.name} is not reachable at ${shown}${hint}`, { cause: err });
    }
    if (res.ok || opts.acceptStatus?.includes(res.status)) return res;
    const text = await res.text().catch(() => "");
    if (res.status >= 300 && res.status < 400) {
      const loc = res.headers.get("location") ?? "";
      const msg = /cloudflareaccess\.com|cdn-cgi\/access/.test(loc)
        ? "Cloudflare Access rejected the service token"
        : `${up.name} redirected to another location; check the URL ${shown}`;
      throw new UpstreamError(up.name, msg, { status: res.status });
    }
    if (res.status === 401 || res.status === 403) {
      if (up.access?.clientId !== undefined && /cloudflare|access/i.test(text)) {
        throw new UpstreamError(up.name, "Cloudflare Access rejected the service token", { status: res.status });
      }
      // A Service-Auth-only Access app answers 403 (no login page) when no token is sent.
      if (/cloudflare access|cloudflareaccess\.com|cdn-cgi\/access/i.test(text)) {
        throw new UpstreamError(
          up.name,
          `Cloudflare Access in front of ${shown} requires a service token: set CF_ACCESS_CLIENT_ID and CF_ACCESS_CLIENT_SECRET`,
          { status: res.status },
        );
      }
    }
    if (res.status === 530) {
      throw new UpstreamError(
        up.name,
        `${up.name} tunnel is down at ${shown} (Cloudflare 530/1033): is cloudflared running?`,
        { status: 530 },
      );
    }
    if (res.status === 502 && /cloudflare/i.test(text)) {
      const hint = up.unreachableHint ? `: ${up.unreachableHint}` : "";
      throw new UpstreamError(up.name, `${up.name} is not reachable at ${shown}${hint}`, { status: 502 });
    }
    throw new HttpStatusError(up, res, text);
  };
  if (opts.retry === false || opts.retry === undefined) return once();
  return withRetry(once, { shouldRetry: isTransient, ...opts.retry });
}

/** `upstreamFetch` + JSON parsing with a clear error when the body is not JSON. */
export async function upstreamJson<T = unknown>(up: Upstream, opts: RequestOptions = {}): Promise<T> {
  const res = await upstreamFetch(up, opts);
  const text = await res.text();
  try {
    return JSON.parse(text) as T;
  } catch (err) {
    throw new UpstreamError(
      up.name,
      `${up.name} answered with something that is not JSON (HTTP ${res.status}); check that ${shownUrl(up.baseUrl)} is the right URL`,
      { cause: err, status: res.status },
    );
  }
}
