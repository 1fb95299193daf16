/**
 * @module The external search API (spec 000): `POST SEARCH_API_URL {query, limit?, cursor?}` with
 * `Authorization` only when SEARCH_API_KEY is set; accepts `results` or `items`, `nextCursor` or
 * `next_cursor`; honours one 429 Retry-After; cuts long content to a size budget and says so.
 */
import type { Config } from "../../shared/config";
import { ToolError, UpstreamError } from "../../shared/errors";
import { HttpStatusError, upstreamJson } from "../../shared/http/client";

/** What the caller asks. */
export interface SearchRequest {
  query: string;
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** One result; unknown upstream fields are kept as they are. */
export interface SearchResult {
  title: string | null;
  url: string | null;
  snippet: string | null;
  content: string | null;
  score: number | null;
  [extra: string]: unknown;
}

/** The normalised answer. */
export interface SearchResponse {
  results: SearchResult[];
  nextCursor: string | null;
}

/** Longest wait for a 429's Retry-After before giving up at once. */
export const MAX_RETRY_AFTER_MS = 10_000;

const strOrNull = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : null);

function httpUrl(v: unknown): string | null {
  if (typeof v !== "string") return null;
  try {
    const u = new URL(v.trim());
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
  } catch {
    return null;
  }
}

/** Normalise one upstream item into a SearchResult. */
export function normalizeResult(raw: unknown): SearchResult {
  const r = raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const { title, url, snippet, content, score, ...extra } = r;
  const n = typeof score === "number" ? score : typeof score === "string" ? Number(score) : Number.NaN;
  return {
    title: strOrNull(title),
    url: httpUrl(url),
    snippet: strOrNull(snippet),
    content: strOrNull(content),
    score: Number.isFinite(n) ? n : null,
    ...extra,
  };
}

/** Fields a budget never cuts: the link and the numbers. */
const UNCUT = new Set(["url", "score", "truncated"]);

/** The fields of a result that may be cut: every text, and extra fields holding objects or arrays. */
function cuttable(r: SearchResult): [string, unknown][] {
  return Object.entries(r).filter(
    ([k, v]) => !UNCUT.has(k) && (typeof v === "string" || (v !== null && typeof v === "object")),
  );
}

/** The largest per-field size that fits `room` characters (water-filling: short fields stay whole), at least 200. */
function fieldCap(lengths: number[], room: number): number {
  const sorted = lengths.toSorted((a, b) => a - b);
  let left = room;
  for (const [i, len] of sorted.entries()) {
    const share = left / (sorted.length - i);
    if (len > share) return Math.max(200, Math.floor(share));
    left -= len;
  }
  return Number.POSITIVE_INFINITY;
}

/**
 * Cut the texts of the results (content, snippet, title and extra fields, never url or score) so
 * the whole answer fits `budget` characters of JSON; long fields are cut first, and every cut says
 * so in the text and marks its result `truncated: true`.
 */
export function applyBudget(res: SearchResponse, budget: number): SearchResponse {
  if (JSON.stringify(res).length <= budget) return res;
  const size = (v: unknown) => (typeof v === "string" ? v.length : JSON.stringify(v).length);
  const fields = res.results.flatMap(cuttable);
  const bare = res.results.map((r) => ({ ...r, ...Object.fromEntries(cuttable(r).map(([k]) => [k, ""])) }));
  // Room left once the bare results are written; ~60 characters per field for the marker.
  const room = budget - JSON.stringify({ ...res, results: bare }).length - 60 * fields.length;
  const cap = fieldCap(
    fields.map(([, v]) => size(v)),
    room,
  );
  const cut = (v: unknown): unknown => {
    const n = size(v);
    if (n <= cap) return v;
    if (typeof v === "string") return `${v.slice(0, cap)}… [truncated: ${cap} of ${n} characters shown]`;
    return `[truncated: ${Array.isArray(v) ? "array" : "object"} of ${n} characters of JSON left out]`;
  };
  return {
    ...res,
    results: res.results.map((r) => {
      const out: SearchResult = { ...r };
      let changed = false;
      for (const [k, v] of cuttable(r)) {
        const c = cut(v);
        if (c !== v) {
          out[k] = c;
          changed = true;
        }
      }
      return changed ? { ...out, truncated: true } : r;
    }),
  };
}

/** Call the configured search API; throws ToolError with an actionable message. */
export async function searchApi(
  config: Config,
  req: SearchRequest,
  deps: { fetch?: typeof fetch; signal?: AbortSignal } = {},
): Promise<SearchResponse> {
  const url = config.SEARCH_API_URL;
  if (!url) {
    throw new ToolError(
      "Search is not configured: set SEARCH_API_URL to your search service or n8n webhook URL (and SEARCH_API_KEY if it needs a key).",
    );
  }
  // Shown in messages: no credentials, no query string (webhook URLs often carry tokens there).
  const parsed = new URL(url);
  const shown = `${parsed.protocol}//${parsed.host}${parsed.pathname}`.replace(/\/+$/, "");
  const headers: Record<string, string> = {};
  const key = config.SEARCH_API_KEY;
  if (key) headers.Authorization = /^(Bearer|Basic|Token) /i.test(key) ? key : `Bearer ${key}`;
  const json: Record<string, unknown> = { query: req.query };
  if (req.limit !== undefined) json.limit = req.limit;
  if (req.cursor !== undefined) json.cursor = req.cursor;
  let answer: unknown;
  try {
    answer = await upstreamJson(
      { name: "Search API", baseUrl: url, headers, ...(deps.fetch ? { fetch: deps.fetch } : {}) },
      {
        method: "POST",
        json,
        timeoutMs: config.SEARCH_TIMEOUT_MS,
        ...(deps.signal ? { signal: deps.signal } : {}),
        retry: {
          maxAttempts: 2,
          shouldRetry: (err) =>
            err instanceof HttpStatusError && err.status === 429 && (err.retryAfterMs ?? 1000) <= MAX_RETRY_AFTER_MS,
          delayFor: (err) => (err instanceof HttpStatusError ? (err.retryAfterMs ?? 1000) : undefined),
        },
      },
    );
  } catch (err) {
    if (err instanceof HttpStatusError && err.status === 429) {
      const wait = err.retryAfterMs === undefined ? "" : ` in ${Math.ceil(err.retryAfterMs / 1000)} s`;
      throw new ToolError(`The search API at ${shown} is rate-limiting requests (HTTP 429); try again${wait}.`);
    }
    if (err instanceof HttpStatusError && (err.status === 401 || err.status === 403)) {
      throw new ToolError(
        key
          ? `The search API at ${shown} rejected the key (HTTP ${err.status}): check SEARCH_API_KEY.`
          : `The search API at ${shown} needs a key (HTTP ${err.status}): set SEARCH_API_KEY.`,
      );
    }
    if (err instanceof UpstreamError) throw new ToolError(err.message.replace(url, shown));
    throw err;
  }
  const body = answer && typeof answer === "object" ? (answer as Record<string, unknown>) : {};
  const list = body.results ?? body.items;
  if (!Array.isArray(list)) {
    throw new ToolError(`The search API at ${shown} answered without "results" or "items"; check SEARCH_API_URL.`);
  }
  const cursor = body.nextCursor ?? body.next_cursor;
  const res: SearchResponse = {
    results: list.map(normalizeResult),
    nextCursor: typeof cursor === "string" && cursor ? cursor : typeof cursor === "number" ? String(cursor) : null,
  };
  return applyBudget(res, config.SEARCH_MAX_CHARS);
}
