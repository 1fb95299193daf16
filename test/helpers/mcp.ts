/** Helpers to drive the Worker with the official MCP SDK Client, over Streamable HTTP or SSE. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { env, exports } from "cloudflare:workers";

export const BASE = "https://mcp.test";
export const TOKEN = "test-token-all";

/** fetch that sends requests into the Worker under test. */
export const workerFetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
  exports.default.fetch(new Request(input, init));

export type Transport = "streamable-http" | "sse";

/** Connect an SDK Client to `path` (e.g. "/mcp", "/anki/sse") with the bearer token. */
export async function connect(
  path: string,
  transport: Transport = "streamable-http",
  token: string | null = TOKEN,
): Promise<Client> {
  const url = new URL(path, BASE);
  const authed = (u: RequestInfo | URL, init?: RequestInit) => {
    const h = new Headers(init?.headers);
    if (token) h.set("Authorization", `Bearer ${token}`);
    return workerFetch(u, { ...init, headers: h });
  };
  const client = new Client({ name: "test-client", version: "1.0.0" });
  const t =
    transport === "sse"
      ? new SSEClientTransport(url, { eventSourceInit: { fetch: authed }, fetch: authed })
      : new StreamableHTTPClientTransport(url, { fetch: authed });
  await client.connect(t);
  return client;
}

/** Plain REST call into the Worker. */
export function api(
  path: string,
  init: RequestInit & { json?: unknown; token?: string | null } = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  const token = init.token === undefined ? TOKEN : init.token;
  if (token) headers.set("Authorization", `Bearer ${token}`);
  let body = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers.set("Content-Type", "application/json");
  }
  return workerFetch(new URL(path, BASE), { ...init, headers, body: body ?? null });
}

/** URL of a running fake by key (see test/fakes/index.ts). */
export function fakeUrl(key: string): string {
  const urls = JSON.parse(env.FAKE_URLS) as Record<string, string>;
  const url = urls[key];
  if (!url) throw new Error(`No fake named "${key}" is running`);
  return url;
}

/** Turn knobs of a fake (latencyMs, down, fault, …), or reset it with `null`. */
export async function fakeControl(
  key: string,
  knobs: Record<string, unknown> | null,
): Promise<{ requests: number; log: { method: string; path: string }[] }> {
  const res = await fetch(`${fakeUrl(key)}/__control${knobs === null ? "/reset" : ""}`, {
    method: "POST",
    body: JSON.stringify(knobs ?? {}),
  });
  return res.json();
}

/** Counters and request log of a fake. */
export async function fakeStats(key: string): Promise<{ requests: number; log: { method: string; path: string }[] }> {
  return (await fetch(`${fakeUrl(key)}/__control`)).json();
}
