/**
 * @module A tiny loopback HTTP server every upstream fake is built on. It listens on 127.0.0.1
 * only, stops by itself (lifetime and request caps), and has knobs tests turn over HTTP:
 *
 *   POST /__control        {"latencyMs": 50, "down": true, "fault": "garbage", ...}  merge knobs
 *   POST /__control/reset  reset knobs, counters and the fake's own state
 *   GET  /__control        {"knobs": {...}, "requests": 12, "log": [{method, path, at}]}
 *
 * `down` destroys the socket of every non-control request (connection refused/reset), `fault`
 * is interpreted by the fake ("garbage" = non-JSON 200, "error" = 500 with the upstream's error
 * shape, anything else the fake defines), `latencyMs` delays every answer.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Knobs {
  latencyMs?: number;
  down?: boolean;
  fault?: string;
  [key: string]: unknown;
}

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  /** Raw body bytes (read by Content-Length semantics where the fake cares). */
  body: Buffer;
  knobs: Knobs;
}

export interface FakeResponse {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer | Uint8Array;
  /** Shortcut: JSON body with Content-Type application/json. */
  json?: unknown;
  /** Destroy the socket instead of answering. */
  destroy?: boolean;
}

export interface FakeDefinition {
  name: string;
  handle(req: FakeRequest): FakeResponse | Promise<FakeResponse>;
  /** Reset the fake's own state (called by POST /__control/reset). */
  reset?(): void;
  /** The fake's own state for tests to inspect, returned as `state` by /__control. */
  state?(): unknown;
  /** Handle `fault` values the default handling does not know. */
}

export interface RunningFake {
  name: string;
  url: string;
  port: number;
  close(): Promise<void>;
}

const MAX_LIFETIME_MS = 30 * 60_000;
const MAX_REQUESTS = 200_000;

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, out: FakeResponse): void {
  if (out.destroy) {
    res.socket?.destroy();
    return;
  }
  const headers: Record<string, string> = { ...out.headers };
  let body: string | Buffer | Uint8Array = out.body ?? "";
  if (out.json !== undefined) {
    body = JSON.stringify(out.json);
    headers["Content-Type"] ??= "application/json";
  }
  const buf = typeof body === "string" ? Buffer.from(body) : Buffer.from(body);
  headers["Content-Length"] ??= String(buf.length);
  res.writeHead(out.status ?? 200, headers);
  res.end(buf);
}

/** Start a fake on 127.0.0.1 with a random free port (or `port`). */
export async function startFake(def: FakeDefinition, port = 0): Promise<RunningFake> {
  let knobs: Knobs = {};
  let requests = 0;
  let log: { method: string; path: string; at: number }[] = [];
  const server: Server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const body = await readBody(req);
      if (url.pathname.startsWith("/__control")) {
        if (req.method === "POST" && url.pathname === "/__control/reset") {
          knobs = {};
          requests = 0;
          log = [];
          def.reset?.();
        } else if (req.method === "POST") {
          knobs = { ...knobs, ...(JSON.parse(body.toString() || "{}") as Knobs) };
        }
        return send(res, { json: { knobs, requests, log, state: def.state?.() } });
      }
      if (++requests > MAX_REQUESTS) return send(res, { destroy: true });
      log.push({ method: req.method ?? "GET", path: url.pathname + url.search, at: Date.now() });
      if (log.length > 1000) log.shift();
      if (knobs.latencyMs) await new Promise((r) => setTimeout(r, Number(knobs.latencyMs)));
      if (knobs.down) return send(res, { destroy: true });
      const out = await def.handle({
        method: req.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
        knobs,
      });
      send(res, out);
    } catch (err) {
      send(res, { status: 500, body: `fake ${def.name} crashed: ${String(err)}` });
    }
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const addr = server.address() as AddressInfo;
  const lifetime = setTimeout(() => server.close(), MAX_LIFETIME_MS);
  lifetime.unref();
  return {
    name: def.name,
    port: addr.port,
    url: `http://127.0.0.1:${addr.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        clearTimeout(lifetime);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
