/**
 * @module The benchmark harness: starts the upstream fakes and the real Worker under
 * `wrangler dev --local`, gives sections an MCP client, timing helpers and a table printer.
 * Numbers only, no pass/fail: these machines are shared and noisy.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { RunningFake } from "../test/fakes/harness";
import { envForFakes, startAllFakes } from "../test/fakes/index";

export const BENCH_TOKEN = "bench-token-0123456789";

export interface Stack {
  /** Base URL of the Worker under wrangler dev. */
  url: string;
  token: string;
  fakes: Record<string, RunningFake>;
  /** Turn a fake's knobs (latencyMs, down, fault…), or reset it with null. */
  control(key: string, knobs: Record<string, unknown> | null): Promise<{ requests: number }>;
  /** Requests a fake has served since its last reset. */
  requests(key: string): Promise<number>;
  /** An SDK Client connected over Streamable HTTP to `path` (default /mcp). */
  client(path?: string): Promise<Client>;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const addr = s.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

async function waitFor(url: string, child: ChildProcess, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with code ${child.exitCode}`);
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`wrangler dev did not answer ${url} within ${ms / 1000} s`);
}

/**
 * fetch that retries once when a reused keep-alive socket turns out to be closed by the server
 * ("other side closed"): a client-side race of loopback keep-alive, not a server failure.
 */
export async function retryStaleSocket(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(input, init);
  } catch (err) {
    const code = (err as { cause?: { code?: string } }).cause?.code;
    if (code !== "UND_ERR_SOCKET") throw err;
    return fetch(input, init);
  }
}

/** Start fakes + `wrangler dev --local`; `vars` override settings. */
export async function startStack(vars: Record<string, string> = {}): Promise<Stack> {
  const fakes = await startAllFakes();
  const urls = Object.fromEntries(Object.entries(fakes).map(([k, f]) => [k, f.url]));
  const port = await freePort();
  const persist = mkdtempSync(join(tmpdir(), "bench-wrangler-"));
  const allVars: Record<string, string> = {
    MCP_AUTH_TOKEN: BENCH_TOKEN,
    LOG_LEVEL: "error",
    ...envForFakes(urls),
    ...vars,
  };
  const args = [
    "dev",
    "--local",
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--persist-to",
    persist,
    "--log-level",
    "error",
    "--show-interactive-dev-session=false",
  ];
  for (const [k, v] of Object.entries(allVars)) args.push("--var", `${k}:${v}`);
  // Own process group, so stop() ends wrangler and its workerd children together.
  const child = spawn(join("node_modules", ".bin", "wrangler"), args, {
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" },
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const kill = () => {
    try {
      if (child.pid) process.kill(-child.pid, "SIGTERM");
    } catch {
      /* already gone */
    }
  };
  process.once("exit", kill);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${url}/health`, child, 90_000);
  } catch (err) {
    kill();
    await Promise.all(Object.values(fakes).map((f) => f.close()));
    throw new Error(`${(err as Error).message}\n${stderr}`, { cause: err });
  }
  const clients: Client[] = [];
  const control = async (key: string, knobs: Record<string, unknown> | null) => {
    const f = fakes[key];
    if (!f) throw new Error(`no fake ${key}`);
    const r = await fetch(`${f.url}/__control${knobs === null ? "/reset" : ""}`, {
      method: "POST",
      body: JSON.stringify(knobs ?? {}),
    });
    return (await r.json()) as { requests: number };
  };
  return {
    url,
    token: BENCH_TOKEN,
    fakes,
    control,
    requests: async (key) => {
      const f = fakes[key];
      if (!f) throw new Error(`no fake ${key}`);
      return ((await (await fetch(`${f.url}/__control`)).json()) as { requests: number }).requests;
    },
    client: async (path = "/mcp") => {
      const c = new Client({ name: "bench", version: "1.0.0" });
      await c.connect(
        new StreamableHTTPClientTransport(new URL(path, url), {
          requestInit: { headers: { Authorization: `Bearer ${BENCH_TOKEN}` } },
          fetch: retryStaleSocket,
        }),
      );
      clients.push(c);
      return c;
    },
    stop: async () => {
      await Promise.allSettled(clients.map((c) => c.close()));
      kill();
      await Promise.all(Object.values(fakes).map((f) => f.close()));
      rmSync(persist, { recursive: true, force: true });
    },
  };
}

/** Percentile of sorted numbers (nearest rank). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? Number.NaN;
}

export interface LoadResult {
  n: number;
  /** Operations that threw (counted, not timed). */
  errors: number;
  p50: number;
  p95: number;
  p99: number;
  /** Completed operations per second over the whole run. */
  throughput: number;
}

/** Run `op` `total` times with `concurrency` workers; each worker gets its own index. */
export async function load(
  total: number,
  concurrency: number,
  op: (worker: number, i: number) => Promise<unknown>,
): Promise<LoadResult> {
  const times: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      for (let i = next++; i < total; i = next++) {
        const t = performance.now();
        try {
          await op(w, i);
          times.push(performance.now() - t);
        } catch {
          errors++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return {
    n: times.length,
    errors,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    throughput: times.length / elapsed,
  };
}

/** Print a titled table of rows (objects with the same keys). */
export function table(title: string, rows: Record<string, unknown>[]): void {
  console.log(`\n## ${title}`);
  if (rows.length === 0) return console.log("(no rows)");
  const fmt = (v: unknown) =>
    typeof v === "number" ? (Number.isInteger(v) ? String(v) : v.toFixed(v < 10 ? 2 : 1)) : String(v);
  const keys = Object.keys(rows[0] ?? {});
  const cells = rows.map((r) => keys.map((k) => fmt(r[k])));
  const widths = keys.map((k, i) => Math.max(k.length, ...cells.map((c) => c[i]?.length ?? 0)));
  console.log(keys.map((k, i) => k.padEnd(widths[i] ?? 0)).join("  "));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const c of cells) console.log(c.map((v, i) => v.padEnd(widths[i] ?? 0)).join("  "));
}

/** A benchmark section: one file under bench/, listed in bench/run.ts. */
export interface BenchSection {
  name: string;
  /** Settings the section needs the Worker to start with (merged into one stack). */
  vars?: Record<string, string>;
  run(stack: Stack): Promise<void>;
}
