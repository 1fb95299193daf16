/**
 * @module Qdrant failures → reasons a person can act on. The JS client throws an ApiError whose
 * `message` is only the HTTP status text; Qdrant's own words are in `err.data.status.error`
 * (JSON envelope) or `err.data` (the plain-text 401). Never includes the API key.
 */
import { QdrantClientResourceExhaustedError, QdrantClientTimeoutError } from "@qdrant/js-client-rest";
import { ToolError, errorMessage } from "../../shared/errors";
import { safeUrl } from "./embed-util";

interface Ctx {
  store: {
    settings: { url: string; apiKey?: string | undefined; timeoutMs: number };
    vectors(c: string): Promise<Map<string, number> | undefined>;
  };
  collection: string;
  using: string;
}

/** HTTP status and Qdrant's message of a client error, when it was an HTTP answer. */
export function qdrantAnswer(err: unknown): { status: number; message: string } | undefined {
  if (!err || typeof err !== "object") return undefined;
  const e = err as { status?: unknown; data?: unknown };
  if (typeof e.status !== "number") return undefined;
  const data = e.data;
  let message = "";
  if (typeof data === "string") message = data;
  else if (data && typeof data === "object") {
    const status = (data as { status?: unknown }).status;
    if (status && typeof status === "object" && typeof (status as { error?: unknown }).error === "string") {
      message = (status as { error: string }).error;
    }
  }
  return { status: e.status, message };
}

/** True when Qdrant said the collection does not exist (on the raw error or a described one). */
export function isMissingCollection(err: unknown): boolean {
  const raw = err instanceof ToolError && err.cause !== undefined ? err.cause : err;
  const a = qdrantAnswer(raw);
  return a?.status === 404 && /Collection .* (doesn't|does not) exist/.test(a.message);
}

/** Worth one more try: network failures, timeouts and 5xx (never 4xx). */
export function isTransientQdrant(err: unknown): boolean {
  if (err instanceof QdrantClientTimeoutError) return true;
  const a = qdrantAnswer(err);
  if (a) return a.status >= 500;
  return err instanceof TypeError;
}

async function vectorNames(ctx: Ctx): Promise<string> {
  try {
    const v = await ctx.store.vectors(ctx.collection);
    if (!v || v.size === 0) return "";
    const names = [...v.keys()];
    if (names.length === 1 && names[0] === "")
      return "; the collection has only the unnamed vector: leave QDRANT_VECTOR_NAME empty";
    return `; it has: ${names.map((n) => `"${n}"`).join(", ")}`;
  } catch {
    return "";
  }
}

/** Turn any error from the Qdrant client into a ToolError with an actionable reason. */
export async function describeQdrantError(err: unknown, ctx: Ctx): Promise<ToolError> {
  if (err instanceof ToolError) return err;
  const url = safeUrl(ctx.store.settings.url);
  const col = `\`${ctx.collection}\``;
  const make = (msg: string) => new ToolError(msg, { cause: err });
  if (err instanceof QdrantClientTimeoutError) {
    const ms = ctx.store.settings.timeoutMs;
    const wait = ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
    return make(`Qdrant at ${url} did not answer within ${wait} (QDRANT_TIMEOUT_MS)`);
  }
  if (err instanceof QdrantClientResourceExhaustedError) {
    return make(`Qdrant at ${url} is rate-limiting requests; retry in ${err.retry_after} s`);
  }
  const a = qdrantAnswer(err);
  if (!a) {
    const msg = errorMessage(err);
    if (/uninitialized|JSON|Unexpected token/i.test(msg)) {
      return make(`Qdrant at ${url} answered with something that is not the Qdrant API: check QDRANT_URL`);
    }
    return make(
      `Qdrant is not reachable at ${url}: is it running (docker run -p 6333:6333 qdrant/qdrant) and is QDRANT_URL right?`,
    );
  }
  const { status, message } = a;
  if (status === 401) {
    return make(
      ctx.store.settings.apiKey
        ? `Qdrant at ${url} rejected the API key (HTTP 401: ${message || "Invalid API key"}): check QDRANT_API_KEY`
        : `Qdrant at ${url} requires an API key (HTTP 401): set QDRANT_API_KEY`,
    );
  }
  if (status === 403) {
    return make(`Qdrant at ${url} refused this operation for the API key (HTTP 403, read-only key?): ${message}`);
  }
  if (status === 404 && /Collection .* (doesn't|does not) exist|Collection .* not found/i.test(message)) {
    return make(
      `collection ${col} does not exist in Qdrant at ${url}: fill it with qdrant-store or \`npm run ingest\`, or choose another collection (QDRANT_COLLECTION)`,
    );
  }
  const vn = /Not existing vector name error: ?(.*)$/.exec(message);
  if (vn) {
    const name = vn[1] ?? "";
    const what = name ? `no vector named "${name}"` : "no unnamed vector (it uses named vectors)";
    return make(`collection ${col} has ${what}: set QDRANT_VECTOR_NAME${await vectorNames(ctx)}`);
  }
  const dim = /expected dim: (\d+), got (\d+)/.exec(message);
  if (dim) {
    const vec = ctx.using ? ` (vector "${ctx.using}")` : "";
    return make(
      `dimension mismatch: collection ${col}${vec} holds ${dim[1]}-dimensional vectors but the embedding model produced ${dim[2]}: use the model the collection was filled with (EMBEDDING_PROVIDER / EMBEDDING_MODEL / EMBEDDING_DIMENSIONS) or re-ingest into a new collection`,
    );
  }
  if (/Index required but not found/.test(message)) {
    return make(`${message.replace(/^Bad request: /, "")} (Qdrant at ${url})`);
  }
  const detail = message ? `: ${message.slice(0, 300)}` : "";
  if (status === 404) return make(`Qdrant at ${url} answered HTTP 404${detail}: check QDRANT_URL (no path prefix?)`);
  return make(`Qdrant at ${url} answered HTTP ${status}${detail}`);
}
