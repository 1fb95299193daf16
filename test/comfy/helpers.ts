/** Shared bits of the ComfyUI tests: fake control, result shapes, direct tool calls with per-test settings. */
import { fakeControl, fakeStats, fakeUrl } from "../helpers/mcp";
import { toolContext } from "../helpers/context";
import { registry } from "../../workers/registry";
import type { ToolContext } from "../../shared/tools/context";
import type { ToolResult } from "../../shared/tools/define-tool";

/**
 * Hold the ComfyUI fake for this test file (its knobs are process-wide), waiting for another file
 * to finish with it; call in beforeAll and release in afterAll. Returns the release function.
 */
export async function holdComfyFake(file: string): Promise<() => Promise<void>> {
  const lock = `${fakeUrl("comfyui")}/__lock?owner=${encodeURIComponent(file)}`;
  const until = Date.now() + 240_000;
  while ((await fetch(lock, { method: "POST" })).status === 423) {
    if (Date.now() > until) throw new Error("the ComfyUI fake stayed busy for 4 minutes");
    await sleep(250);
  }
  await comfyFake();
  return async () => {
    await comfyFake();
    await fetch(lock, { method: "DELETE" });
  };
}

/** Reset the ComfyUI fake (state, counters, knobs) and set `knobs`. */
export async function comfyFake(knobs: Record<string, unknown> = {}): Promise<void> {
  await fakeControl("comfyui", null);
  if (Object.keys(knobs).length) await fakeControl("comfyui", knobs);
}

/** Requests the ComfyUI fake served since its last reset, as "METHOD /path" (query dropped). */
export async function comfyRequests(): Promise<string[]> {
  const { log } = await fakeStats("comfyui");
  return log.map((l) => `${l.method} ${l.path.split("?")[0]}`);
}

/** The shape our job results share. */
export interface JobData {
  job_id: string;
  status: string;
  status_url: string;
  values: Record<string, unknown>;
  generated: string[];
  outputs: { url: string; filename: string; mime_type: string; width?: number; height?: number }[];
  error?: { kind: string; message: string; node_id?: string; node_type?: string; exception_type?: string };
  queue?: { state: string; ahead?: number };
}

/** structuredContent of a result, typed. */
export function jobData(result: unknown): JobData {
  return (result as { structuredContent?: unknown }).structuredContent as JobData;
}

/** First text block of a result. */
export function textOf(result: unknown): string {
  const blocks = ((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[];
  return blocks.find((b) => b.type === "text")?.text ?? "";
}

/** Call a tool through the registry (as MCP and REST do) with settings overridden for this call. */
export async function callWith(
  name: string,
  args: Record<string, unknown>,
  vars: Record<string, string> = {},
  extra: Partial<ToolContext> = {},
): Promise<ToolResult & { progressLog: unknown[] }> {
  const tool = registry.get(name);
  if (!tool) throw new Error(`no tool ${name}`);
  const ctx = toolContext(vars, extra);
  const { result } = await registry.call(tool, args, ctx);
  return { ...result, progressLog: ctx.progressLog };
}

/** Sleep. */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
