/**
 * @module Settings: every environment variable is parsed once here, by one zod schema, with
 * messages that name the variable. Empty strings count as unset everywhere.
 */
import { z } from "zod";

/** Treat "" (and whitespace) as unset, so `VAR=` in .dev.vars or [vars] means "use the default". */
const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optStr = () => z.preprocess(blank, z.string().trim().optional());
const str = (def: string) => z.preprocess(blank, z.string().trim().default(def));
const url = (def?: string) => {
  const base = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });
  return z.preprocess(
    (v) => (typeof blank(v) === "string" ? String(v).trim().replace(/\/+$/, "") : blank(v)),
    def === undefined ? base.optional() : base.default(def),
  );
};
const int = (def: number, min: number, max: number) =>
  z.preprocess(blank, z.coerce.number().int().min(min).max(max).default(def));

/** One bearer token and the families it may use (all when `families` is undefined). */
export interface TokenGrant {
  token: string;
  families?: string[];
}

/**
 * MCP_AUTH_TOKEN: comma- or newline-separated tokens. A token may be limited to families with
 * `token:family+family`, e.g. `s3cret-anki-only:anki`, `read-all:core+rag+search`.
 */
const tokens = z.preprocess(
  blank,
  z
    .string()
    .optional()
    .transform((raw, ctx): TokenGrant[] => {
      if (!raw) return [];
      const grants: TokenGrant[] = [];
      for (const part of raw.split(/[,\n]/)) {
        const entry = part.trim();
        if (!entry) continue;
        const [token = "", scope] = entry.split(":", 2);
        if (token.length < 8) {
          ctx.addIssue({ code: "custom", message: "each token must be at least 8 characters" });
          continue;
        }
        const families = scope
          ?.split("+")
          .map((f) => f.trim())
          .filter(Boolean);
        grants.push(families && families.length > 0 ? { token, families } : { token });
      }
      return grants;
    }),
);

const list = z.preprocess(
  blank,
  z
    .string()
    .optional()
    .transform((v) =>
      v
        ? v
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean)
        : [],
    ),
);

/** Spec 004 step 6-4: the chat's default system prompt (Japanese, as the seed gives it). */
export const DEFAULT_CHAT_SYSTEM_PROMPT =
  "あなたは遊戯王OCGの対戦動画サムネイルを作成するアシスタントです。\n" +
  "ユーザーの要望に応じて、必ずMCPツール（get_theme_illustrations または get_card_illustration）を使用して関連する公式カードイラストを参照し、それらを元に画像を生成してください。";

export const ConfigSchema = z.object({
  // This server
  MCP_AUTH_TOKEN: tokens,
  ALLOWED_ORIGINS: list,
  LOG_LEVEL: z.preprocess(blank, z.enum(["debug", "info", "warn", "error"]).default("info")),
  /** Key for signing /files URLs; falls back to a key derived from the first auth token. */
  FILES_SIGNING_KEY: optStr(),
  /** How long a signed /files URL stays valid. */
  FILES_URL_TTL_SECONDS: int(7 * 86_400, 60, 30 * 86_400),
  PUBLIC_BASE_URL: url(),

  // Cloudflare Access service token (in front of the Anki and ComfyUI tunnels)
  CF_ACCESS_CLIENT_ID: optStr(),
  CF_ACCESS_CLIENT_SECRET: optStr(),

  // Anki
  ANKI_CONNECT_URL: url("http://127.0.0.1:8765"),
  ANKI_CONNECT_API_KEY: optStr(),
  ANKI_DEFAULT_DECK: str("Default"),
  ANKI_DEFAULT_MODEL: str("Поля для ChatGPT"),
  ANKI_TIMEOUT_MS: int(15_000, 100, 120_000),
  /** Largest image (bytes, before resizing) accepted from image_url, image_base64 or a data URL. */
  ANKI_IMAGE_MAX_BYTES: int(10 * 1024 * 1024, 1024, 50 * 1024 * 1024),
  ANKI_IMAGE_FETCH_TIMEOUT_MS: int(10_000, 100, 60_000),

  // ComfyUI
  COMFYUI_URL: url("http://127.0.0.1:8188"),
  COMFYUI_WAIT_MS: int(50_000, 0, 55_000),
  COMFYUI_MAX_JOB_MS: int(30 * 60_000, 1_000, 24 * 3_600_000),
  COMFYUI_POLL_SECONDS: int(2, 0, 60),
  COMFYUI_TIMEOUT_MS: int(15_000, 100, 120_000),

  // Qdrant, embeddings, reranking
  QDRANT_URL: url("http://127.0.0.1:6333"),
  QDRANT_API_KEY: optStr(),
  QDRANT_COLLECTION: str("knowledge"),
  QDRANT_VECTOR_NAME: z.preprocess((v) => (typeof v === "string" ? v.trim() : v), z.string().default("")),
  EMBEDDING_PROVIDER: z.preprocess(blank, z.enum(["workers-ai", "gemini", "openai"]).optional()),
  EMBEDDING_MODEL: optStr(),
  EMBEDDING_BASE_URL: url(),
  EMBEDDING_API_KEY: optStr(),
  RERANK_MODE: z.preprocess(blank, z.enum(["none", "keyword", "cross-encoder"]).default("keyword")),
  RERANK_URL: url(),
  RERANK_OVERFETCH: int(4, 1, 20),
  QDRANT_TIMEOUT_MS: int(10_000, 100, 120_000),
  /** Vector size asked of providers that can shorten vectors (Gemini, OpenAI text-embedding-3-*). */
  EMBEDDING_DIMENSIONS: z.preprocess(blank, z.coerce.number().int().min(8).max(8192).optional()),
  EMBEDDING_BATCH_SIZE: int(32, 1, 256),
  EMBEDDING_TIMEOUT_MS: int(20_000, 100, 120_000),
  /** Workers AI cross-encoder used when RERANK_URL is unset. */
  RERANK_MODEL: str("@cf/baai/bge-reranker-base"),
  RERANK_API_KEY: optStr(),
  /** Share of the lexical (BM25) score in keyword reranking; the rest is the vector score. */
  RERANK_KEYWORD_WEIGHT: z.preprocess(blank, z.coerce.number().min(0).max(1).default(0.5)),
  /** Longest chunk (characters) that qdrant-store and `npm run ingest` write. */
  CHUNK_MAX_CHARS: int(1500, 200, 8000),

  // External search
  SEARCH_API_URL: url(),
  SEARCH_API_KEY: optStr(),
  SEARCH_TIMEOUT_MS: int(15_000, 100, 60_000),
  /** Character budget for one search answer; longer content is cut and marked `truncated`. */
  SEARCH_MAX_CHARS: int(20_000, 1_000, 500_000),

  // Gemini chat
  GEMINI_API_KEY: optStr(),
  GEMINI_MODEL: str("gemini-2.5-flash"),
  GEMINI_IMAGE_MODEL: str("gemini-2.5-flash-image"),
  GEMINI_BASE_URL: url(),
  MCP_SERVER_URL: url(),
  MCP_SERVER_TOKEN: optStr(),
  /** Per-call timeout of the chat's MCP client (connect, list, call). */
  MCP_CALL_TIMEOUT_MS: int(30_000, 100, 300_000),
  GEMINI_TIMEOUT_MS: int(120_000, 1_000, 600_000),
  /** Tools the chat offers Gemini (comma-separated MCP names); `*` offers every tool the server lists. */
  CHAT_TOOLS: z.preprocess(
    blank,
    z
      .string()
      .default("get_card_illustration,get_theme_illustrations")
      .transform((v) =>
        v
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
      ),
  ),
  CHAT_SYSTEM_PROMPT: str(DEFAULT_CHAT_SYSTEM_PROMPT),
  /** Rounds in which Gemini may call tools (each may hold several calls); then it must answer in text. */
  CHAT_MAX_ROUNDS: int(5, 1, 20),
  CHAT_MAX_HISTORY: int(50, 0, 500),
  CHAT_MAX_BODY_BYTES: int(512 * 1024, 1024, 8 * 1024 * 1024),
  /** `auto`: chain GEMINI_IMAGE_MODEL when tools fetched reference images and the answer has none. */
  CHAT_IMAGE_MODE: z.preprocess(blank, z.enum(["auto", "always", "never"]).default("auto")),

  // Cards
  CARD_API_URL: url("https://db.ygoprodeck.com/api/v7"),
  CARD_IMAGE_MAX_SIDE: int(512, 64, 2048),
  /** JPEG quality of the resized artworks kept in R2. */
  CARD_IMAGE_QUALITY: int(82, 40, 95),
  /** Requests per second to YGOPRODeck from one isolate (their limit is 20; more gets us blocked for an hour). */
  CARD_API_MAX_RPS: int(20, 1, 20),
  /** How long to stop calling YGOPRODeck after it refused us (429/403), when it sends no Retry-After. */
  CARD_API_BLOCK_SECONDS: int(3600, 1, 86_400),
  /** How long card lookups are kept in R2 (their own cache is 2 days); 0 = always ask the API. */
  CARD_DATA_TTL_HOURS: int(48, 0, 24 * 30),
});

/** Every setting, parsed. */
export type Config = z.infer<typeof ConfigSchema>;

/** Thrown when a setting is invalid; the message names each variable. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

const cache = new WeakMap<object, Config>();

/**
 * Parse settings from the Worker env (or any record of strings). Parsed once per env object.
 * @throws ConfigError naming every bad variable, e.g. `QDRANT_URL: must be an http(s) URL`.
 */
export function loadConfig(env: object): Config {
  const hit = cache.get(env);
  if (hit) return hit;
  const source: Record<string, unknown> = {};
  for (const key of Object.keys(ConfigSchema.shape)) {
    const value = (env as Record<string, unknown>)[key];
    if (typeof value === "string") source[key] = value;
  }
  const parsed = ConfigSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join(".") || "config"}: ${i.message}`);
    throw new ConfigError(`Invalid configuration: ${lines.join("; ")}`);
  }
  cache.set(env, parsed.data);
  return parsed.data;
}

/** Every secret value in the config, for log/error redaction. */
export function secretsOf(config: Config): string[] {
  const out = config.MCP_AUTH_TOKEN.map((g) => g.token);
  for (const v of [
    config.ANKI_CONNECT_API_KEY,
    config.CF_ACCESS_CLIENT_SECRET,
    config.QDRANT_API_KEY,
    config.EMBEDDING_API_KEY,
    config.RERANK_API_KEY,
    config.SEARCH_API_KEY,
    config.GEMINI_API_KEY,
    config.MCP_SERVER_TOKEN,
    config.FILES_SIGNING_KEY,
  ]) {
    if (v) out.push(v);
  }
  return out;
}
