/**
 * @module What a generated ComfyUI tool does: upload image arguments, build the prompt, record the
 * job durably, enqueue its first poll, submit it, then wait (bounded by COMFYUI_WAIT_MS, with
 * progress notifications) for the queue consumer to finish it.
 */
import { errorMessage } from "../../shared/errors";
import type { ToolContext } from "../../shared/tools/context";
import type { ToolResult } from "../../shared/tools/define-tool";
import { comfyClient } from "./client";
import type { ComfyToolSpec } from "./config";
import { type JobMessage, type JobRecord, isTerminal } from "./job";
import { type JobStoreApi, jobStore } from "./job-store";
import { buildPrompt, fieldFor } from "./prompt";
import { jobResult } from "./results";
import { uploadImageArg } from "./input-image";

/** How often a waiting call reports progress. */
const PROGRESS_EVERY_MS = 2_000;

/**
 * Wait until the job is final or `waitMs` passes, reporting progress (elapsed seconds) every
 * couple of seconds. The store wakes us when the consumer writes the result; ComfyUI is not asked.
 */
export async function waitForJob(store: JobStoreApi, waitMs: number, ctx: ToolContext): Promise<JobRecord | null> {
  const started = Date.now();
  const until = started + waitMs;
  let rec: JobRecord | null = null;
  for (;;) {
    const left = until - Date.now();
    if (left <= 0 || ctx.signal.aborted) return rec ?? (await store.get());
    rec = await store.wait(Math.min(left, PROGRESS_EVERY_MS));
    if (!rec || isTerminal(rec.status)) return rec;
    const s = Math.round((Date.now() - started) / 100) / 10;
    await ctx.progress({ progress: s, message: `ComfyUI выполняет задачу: ${Math.round(s)} с` });
  }
}

/** Run `spec` with validated `args`. */
export async function runComfyTool(
  spec: ComfyToolSpec,
  args: Record<string, unknown>,
  ctx: ToolContext,
): Promise<ToolResult> {
  const { config, bindings: env } = ctx;
  const client = comfyClient(config, ctx.fetch);
  const resolved: Record<string, unknown> = { ...args };
  for (const f of spec.fields) {
    const v = args[f.name];
    if (f.type === "image" && typeof v === "string")
      resolved[f.name] = await uploadImageArg(client, v, f.name, ctx.fetch);
  }
  const built = buildPrompt(spec, resolved);
  const jobId = crypto.randomUUID();
  const now = Date.now();
  const rec: JobRecord = {
    id: jobId,
    tool: spec.name,
    status: "pending",
    baseUrl: ctx.baseUrl,
    createdAt: now,
    updatedAt: now,
    deadline: now + config.COMFYUI_MAX_JOB_MS,
    pollSeconds: config.COMFYUI_POLL_SECONDS,
    values: built.values,
    generated: built.generated,
    outputs: [],
    polls: 0,
    pollSeq: 0,
  };
  const store = jobStore(env, jobId);
  // Record and enqueue before submitting: whatever crashes after the submit, the poll is queued.
  await store.create(rec);
  const first: JobMessage = { jobId, seq: 0 };
  await env.COMFY_QUEUE.send(first, { delaySeconds: config.COMFYUI_POLL_SECONDS });
  try {
    await client.submit(built.prompt, jobId, `mcp-${jobId}`, (node, input) => fieldFor(spec, node, input));
  } catch (err) {
    await store.update({
      status: "failed",
      error: { kind: "submit_failed", message: `ComfyUI не принял задачу: ${errorMessage(err)}` },
    });
    throw err;
  }
  ctx.log.info("comfy job submitted", { tool: spec.name, job: jobId });
  await ctx.progress({ progress: 0, message: "Задача отправлена в ComfyUI" });
  const final = (await waitForJob(store, config.COMFYUI_WAIT_MS, ctx)) ?? rec;
  return jobResult(config, env.FILES, final, ctx.baseUrl, true);
}
