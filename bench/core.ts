/**
 * Core section: tools/list and greet latency (p50/p99) and throughput at 1, 10 and 50 concurrent
 * MCP sessions against the Worker under wrangler dev, side by side with the MCP SDK's own plain
 * Node Streamable HTTP server exposing the same greet tool; plus the gzip bundle size.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type BenchSection, load, table } from "./harness";
import { startNodeReference } from "./node-reference";
import { bundleSize } from "./bundle-size";

const CALLS_PER_SESSION = 20;

async function measure(label: string, open: () => Promise<Client>, sessions: number) {
  const clients = await Promise.all(Array.from({ length: sessions }, open));
  const total = Math.max(100, sessions * CALLS_PER_SESSION);
  const list = await load(total, sessions, (w) => (clients[w] as Client).listTools());
  const greet = await load(total, sessions, (w) =>
    (clients[w] as Client).callTool({ name: "greet", arguments: { name: "Алиса" } }),
  );
  await Promise.allSettled(clients.map((c) => c.close()));
  return [
    {
      server: label,
      sessions,
      op: "tools/list",
      n: list.n,
      errors: list.errors,
      p50_ms: list.p50,
      p99_ms: list.p99,
      ops_per_s: list.throughput,
    },
    {
      server: label,
      sessions,
      op: "greet",
      n: greet.n,
      errors: greet.errors,
      p50_ms: greet.p50,
      p99_ms: greet.p99,
      ops_per_s: greet.throughput,
    },
  ];
}

const section: BenchSection = {
  name: "core",
  async run(stack) {
    const ref = await startNodeReference();
    try {
      const rows: Record<string, unknown>[] = [];
      for (const sessions of [1, 10, 50]) {
        rows.push(...(await measure("worker (wrangler dev)", () => stack.client("/mcp"), sessions)));
        rows.push(...(await measure("node SDK reference", () => ref.client(), sessions)));
      }
      const health = await load(200, 10, () => fetch(`${stack.url}/health`).then((r) => r.text()));
      rows.push({
        server: "worker (wrangler dev)",
        sessions: 10,
        op: "GET /health (no MCP, no DO)",
        n: health.n,
        errors: health.errors,
        p50_ms: health.p50,
        p99_ms: health.p99,
        ops_per_s: health.throughput,
      });
      table("MCP latency and throughput", rows);
      const ratios = [];
      for (const sessions of [1, 10, 50]) {
        for (const op of ["tools/list", "greet"]) {
          const w = rows.find((r) => r.server === "worker (wrangler dev)" && r.sessions === sessions && r.op === op);
          const n = rows.find((r) => r.server === "node SDK reference" && r.sessions === sessions && r.op === op);
          if (w && n) {
            ratios.push({
              sessions,
              op,
              p50_ratio_worker_over_node: Number(w.p50_ms) / Number(n.p50_ms),
              throughput_ratio: Number(w.ops_per_s) / Number(n.ops_per_s),
            });
          }
        }
      }
      table("Worker vs Node reference (ratio > 1 = worker slower / faster throughput)", ratios);
    } finally {
      await ref.stop();
    }
    table("Deployable bundle (wrangler deploy --dry-run)", [await bundleSize()]);
  },
};

export default section;
