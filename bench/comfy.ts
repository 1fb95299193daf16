/**
 * ComfyUI section: for jobs lasting 1 s, 5 s and 30 s (the fake's run time), the latency from
 * ComfyUI finishing a job to the MCP client holding the result (median, p95), the whole call's
 * time, and ComfyUI requests per job; then ComfyUI requests while no job is pending (must be 0).
 * Each job's run time gets 0–2 s of random jitter (one poll interval), so the results sample
 * every phase of the poll schedule instead of landing exactly on (or just after) a poll.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type BenchSection, type Stack, percentile, table } from "./harness";

const PLAN = [
  { seconds: 1, jobs: 12, staggerMs: 700 },
  { seconds: 5, jobs: 8, staggerMs: 700 },
  { seconds: 30, jobs: 4, staggerMs: 900 },
];
const IDLE_SECONDS = 15;
/** One poll interval at the default COMFYUI_POLL_SECONDS. */
const JITTER_MS = 2000;

interface Sample {
  afterCompletionMs: number;
  callMs: number;
}

async function oneJob(client: Client, i: number): Promise<Sample> {
  const started = Date.now();
  const res = await client.callTool({ name: "txt2img_portrait", arguments: { positive: `bench ${i}` } }, undefined, {
    timeout: 120_000,
  });
  const received = Date.now();
  const data = res.structuredContent as { status?: string; completed_at?: string } | undefined;
  if (data?.status !== "succeeded" || !data.completed_at) {
    throw new Error(`job ${i} did not succeed: ${JSON.stringify(res.content).slice(0, 300)}`);
  }
  return { afterCompletionMs: received - Date.parse(data.completed_at), callMs: received - started };
}

async function measure(stack: Stack, client: Client, seconds: number, jobs: number, staggerMs: number) {
  await stack.control("comfyui", null);
  await stack.control("comfyui", { runMs: seconds * 1000, runJitterMs: JITTER_MS, parallel: true });
  const samples = await Promise.all(
    Array.from({ length: jobs }, async (_, i) => {
      await new Promise((r) => setTimeout(r, i * staggerMs));
      return oneJob(client, i);
    }),
  );
  const requests = await stack.requests("comfyui");
  const after = samples.map((s) => s.afterCompletionMs).sort((a, b) => a - b);
  const calls = samples.map((s) => s.callMs).sort((a, b) => a - b);
  return {
    job_s: seconds,
    jobs,
    completion_to_result_p50_ms: percentile(after, 50),
    completion_to_result_p95_ms: percentile(after, 95),
    call_p50_ms: percentile(calls, 50),
    comfy_requests_per_job: requests / jobs,
  };
}

const section: BenchSection = {
  name: "comfy",
  async run(stack) {
    const client = await stack.client("/comfy/mcp");
    const rows = [];
    for (const p of PLAN) rows.push(await measure(stack, client, p.seconds, p.jobs, p.staggerMs));
    table("ComfyUI jobs through the queue (default settings: COMFYUI_POLL_SECONDS=2; run time + 0–2 s jitter)", rows);
    await stack.control("comfyui", null);
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    table("ComfyUI requests while no job is pending", [
      { idle_s: IDLE_SECONDS, comfy_requests: await stack.requests("comfyui") },
    ]);
  },
};

export default section;
