/**
 * @module The chat's MCP client (spec 004, 6-1): the SDK Client over Streamable HTTP, falling back
 * to the legacy SSE transport; `Authorization: Bearer` on every request; connection retries with
 * exponential backoff (shared withRetry); a timeout per request. It knows nothing of this Worker:
 * give it a URL (and a fetch, e.g. a service binding's) and it talks to any MCP server.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { errorMessage } from "../../shared/errors";
import { withRetry } from "../../shared/http/retry";

/** The fetch signature the SDK transports accept. */
export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** Which transport to use; `auto` tries Streamable HTTP, then SSE when the server refuses it. */
export type McpTransportKind = "auto" | "streamable-http" | "sse";

/** Options of McpClient; every field has a default. */
export interface McpClientOptions {
  /** fetch used for every request (default: global fetch). A service binding's fetch works. */
  fetch?: FetchLike;
  transport?: McpTransportKind;
  /** URL of the SSE endpoint for the fallback (default: serverUrl with a final /mcp replaced by /sse). */
  sseUrl?: string;
  /** Timeout of one request (connect, tools/list, tools/call), in ms (default 30 000). */
  timeoutMs?: number;
  /** Connection retries after the first attempt (default 3). */
  retries?: number;
  /** Backoff base in ms (default 200): retry n waits up to base·2ⁿ, with full jitter. */
  baseDelayMs?: number;
}

/** Why the MCP server could not be used; the route answers 502 with `message` (never a token). */
export class McpConnectionError extends Error {
  override readonly name = "McpConnectionError";
  readonly kind: "unreachable" | "timeout" | "rejected";
  constructor(kind: McpConnectionError["kind"], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
  }
}

/** HTTP status carried by the SDK's transport errors (StreamableHTTPError, SseError), if any. */
function statusOf(err: unknown): number | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "number" && code >= 100 && code < 600 ? code : undefined;
}

function isTimeout(err: unknown): boolean {
  const e = err as { name?: unknown; code?: unknown } | null;
  return e?.name === "TimeoutError" || e?.code === -32001 || /timed? ?out/i.test(errorMessage(err));
}

/** Reject with a timeout error when `p` takes longer than `ms`. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DOMException(`${what} timed out`, "TimeoutError")), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** A client of one remote MCP server. Not reusable across servers; `disconnect()` when done. */
export class McpClient {
  private client: Client | undefined;
  private kind: "streamable-http" | "sse" | undefined;
  private readonly url: URL;
  private readonly opts: Required<Omit<McpClientOptions, "sseUrl" | "fetch">> & { sseUrl: URL; fetch: FetchLike };

  /** @param authToken sent as `Authorization: Bearer <token>` on every request; undefined sends none. */
  constructor(serverUrl: string, authToken: string | undefined, options: McpClientOptions = {}) {
    this.url = new URL(serverUrl);
    const baseFetch: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
    const timeoutMs = options.timeoutMs ?? 30_000;
    const authed: FetchLike = (input, init) => {
      const headers = new Headers(init?.headers);
      if (authToken) headers.set("Authorization", `Bearer ${authToken}`);
      // POSTs carry one request each (their answer may be a short SSE stream); the GET stream
      // of the SSE transport lives as long as the session, so it gets no timeout.
      const method = (init?.method ?? "GET").toUpperCase();
      const signals = [init?.signal, method === "GET" ? undefined : AbortSignal.timeout(timeoutMs)].filter(
        (s): s is AbortSignal => s instanceof AbortSignal,
      );
      const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
      return baseFetch(input, { ...init, headers, ...(signal ? { signal } : {}) });
    };
    this.opts = {
      fetch: authed,
      transport: options.transport ?? "auto",
      sseUrl: new URL(options.sseUrl ?? serverUrl.replace(/\/mcp\/?$/, "/sse")),
      timeoutMs,
      retries: options.retries ?? 3,
      baseDelayMs: options.baseDelayMs ?? 200,
    };
  }

  /** The transport in use after connect(). */
  get transport(): "streamable-http" | "sse" | undefined {
    return this.kind;
  }

  /**
   * Connect (initialize) with up to `retries` retries and exponential backoff. Network failures
   * and 5xx/429 are retried; a refused token or a timeout is not (waiting again rarely helps).
   * @throws McpConnectionError
   */
  async connect(): Promise<void> {
    if (this.client) return;
    const where = this.url.origin + this.url.pathname;
    try {
      await withRetry(() => this.connectOnce(), {
        maxAttempts: this.opts.retries + 1,
        baseDelayMs: this.opts.baseDelayMs,
        maxDelayMs: this.opts.baseDelayMs * 2 ** this.opts.retries,
        shouldRetry: (err) => {
          if (isTimeout(err)) return false;
          const status = statusOf(err);
          return status === undefined || status === 429 || status >= 500;
        },
      });
    } catch (err) {
      const status = statusOf(err);
      if (isTimeout(err)) {
        throw new McpConnectionError(
          "timeout",
          `The MCP server at ${where} did not answer within ${this.opts.timeoutMs / 1000} s.`,
          { cause: err },
        );
      }
      if (status === 401 || status === 403) {
        throw new McpConnectionError(
          "rejected",
          `The MCP server at ${where} refused the bearer token (HTTP ${status}); check MCP_SERVER_TOKEN.`,
          { cause: err },
        );
      }
      const detail = status ? `HTTP ${status}` : "no connection";
      throw new McpConnectionError(
        "unreachable",
        `The MCP server at ${where} is not reachable (${detail}, ${this.opts.retries + 1} attempts).`,
        { cause: err },
      );
    }
  }

  private async connectOnce(): Promise<void> {
    const mode = this.opts.transport;
    if (mode !== "sse") {
      try {
        await this.open(new StreamableHTTPClientTransport(this.url, { fetch: this.opts.fetch }), "streamable-http");
        return;
      } catch (err) {
        // Only a server that answers but refuses Streamable HTTP (404/405/400) gets the SSE try;
        // a down or silent server would just fail twice as slowly.
        const status = statusOf(err);
        const refused = status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403;
        if (mode === "streamable-http" || !refused) throw err;
      }
    }
    await this.open(
      new SSEClientTransport(this.opts.sseUrl, { fetch: this.opts.fetch, eventSourceInit: { fetch: this.opts.fetch } }),
      "sse",
    );
  }

  private async open(transport: Transport, kind: "streamable-http" | "sse"): Promise<void> {
    // The SDK's default validator (Ajv) compiles schemas with `new Function`, which workerd
    // forbids outside tests; @cfworker/json-schema interprets them instead.
    const client = new Client(
      { name: "mcp-tools-worker-chat", version: "0.1.0" },
      { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
    );
    try {
      await within(client.connect(transport, { timeout: this.opts.timeoutMs }), this.opts.timeoutMs, "connect");
    } catch (err) {
      await client.close().catch(() => undefined);
      throw err;
    }
    this.client = client;
    this.kind = kind;
  }

  private async connected(): Promise<Client> {
    await this.connect();
    if (!this.client) throw new McpConnectionError("unreachable", "The MCP client is not connected.");
    return this.client;
  }

  /** Every tool the server lists (all pages). */
  async listTools(): Promise<Tool[]> {
    const client = await this.connected();
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.guard(
        client.listTools(cursor ? { cursor } : {}, { timeout: this.opts.timeoutMs }),
        "tools/list",
      );
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor && tools.length < 1000);
    return tools;
  }

  /**
   * Call a tool. Tool failures come back as results with `isError: true` (the model can read
   * them); only transport failures and timeouts throw.
   * @throws McpConnectionError
   */
  async executeTool(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    const client = await this.connected();
    const result = await this.guard(
      client.callTool({ name, arguments: args }, undefined, { timeout: this.opts.timeoutMs }),
      `tools/call ${name}`,
    );
    return result as CallToolResult;
  }

  private async guard<T>(p: Promise<T>, what: string): Promise<T> {
    try {
      return await within(p, this.opts.timeoutMs, what);
    } catch (err) {
      const where = this.url.origin + this.url.pathname;
      if (isTimeout(err)) {
        throw new McpConnectionError(
          "timeout",
          `The MCP server at ${where} did not answer ${what} within ${this.opts.timeoutMs / 1000} s.`,
          { cause: err },
        );
      }
      const status = statusOf(err);
      if (status !== undefined || err instanceof TypeError) {
        throw new McpConnectionError("unreachable", `The MCP server at ${where} failed during ${what}.`, {
          cause: err,
        });
      }
      throw err;
    }
  }

  /** Close the session (Streamable HTTP sends DELETE); never throws. */
  async disconnect(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.kind = undefined;
    if (!client) return;
    const transport = client.transport;
    if (transport instanceof StreamableHTTPClientTransport) {
      await within(transport.terminateSession(), this.opts.timeoutMs, "terminate").catch(() => undefined);
    }
    await client.close().catch(() => undefined);
  }
}
