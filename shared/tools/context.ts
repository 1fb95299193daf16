/** @module The narrow context a tool handler receives: settings, bindings, fetch, logging, progress. */
import type { Config } from "../config";
import type { Logger } from "../log";

/** Progress report for long calls; sent as MCP `notifications/progress` when the client asked. */
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/** What a handler may use. Never the Durable Object, never the raw request. */
export interface ToolContext {
  /** Parsed settings (shared/config.ts). */
  config: Config;
  /** Cloudflare bindings (R2, Queue, AI, Durable Object namespaces) from wrangler.toml. */
  bindings: Env;
  /** Outbound fetch; tests and benches may inject one. */
  fetch: typeof fetch;
  log: Logger;
  /** Aborted when the client cancels or the transport closes. */
  signal: AbortSignal;
  /** Report progress; a no-op when the client did not ask for it. */
  progress(p: Progress): Promise<void>;
  /** Public origin of this server as the client reached it, e.g. `https://mcp.example.com`. */
  baseUrl: string;
  /** Keep background work alive after the response (ctx.waitUntil). */
  waitUntil(promise: Promise<unknown>): void;
}
