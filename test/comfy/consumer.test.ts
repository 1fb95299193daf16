/** The queue consumer on its own: redelivery, retries with backoff, the dead-letter queue, stale duplicates. */
import { env } from "cloudflare:workers";
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import worker from "../../workers/index";
import type { JobMessage, JobRecord } from "../../workers/comfy/job";
import { jobStore } from "../../workers/comfy/job-store";
import { nextPollDelay, retryDelay } from "../../workers/comfy/consumer";
import { comfySpecs } from "../../workers/comfy/index";
import { buildPrompt } from "../../workers/comfy/prompt";
import { fakeUrl } from "../helpers/mcp";
import { comfyFake, comfyRequests, holdComfyFake } from "./helpers";

let release: () => Promise<void> = async () => undefined;
beforeAll(async () => {
  release = await holdComfyFake("consumer");
}, 300_000);
afterAll(() => release());
afterEach(() => comfyFake());

async function newJob(patch: Partial<JobRecord> = {}): Promise<JobRecord> {
  const now = Date.now();
  const rec: JobRecord = {
    id: crypto.randomUUID(),
    tool: "txt2img_portrait",
    status: "pending",
    baseUrl: "https://mcp.test",
    createdAt: now,
    updatedAt: now,
    deadline: now + 60_000,
    pollSeconds: 1,
    values: {},
    generated: [],
    outputs: [],
    polls: 0,
    pollSeq: 0,
    ...patch,
  };
  await jobStore(env, rec.id).create(rec);
  return rec;
}

async function deliver(queue: string, body: JobMessage | JobMessage[], attempts = 1) {
  const bodies = Array.isArray(body) ? body : [body];
  const batch = createMessageBatch<JobMessage>(
    queue,
    bodies.map((b) => ({ id: `m-${b.seq}`, timestamp: new Date(), attempts, body: b })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch as MessageBatch<unknown>, env);
  return getQueueResult(batch, ctx);
}

describe("queue consumer", () => {
  it("collects a job that finished while no consumer ran (redelivery after a restart loses nothing)", async () => {
    await comfyFake();
    const rec = await newJob();
    const spec = comfySpecs[0];
    if (!spec) throw new Error("no spec");
    const prompt = buildPrompt(spec, { positive: "restart" }).prompt;
    await fetch(`${fakeUrl("comfyui")}/prompt`, {
      method: "POST",
      body: JSON.stringify({ prompt, prompt_id: rec.id }),
    });
    const result = await deliver("comfy-jobs", { jobId: rec.id, seq: 0 }, 3);
    expect(result.explicitAcks).toEqual(["m-0"]);
    const stored = await jobStore(env, rec.id).get();
    expect(stored).toMatchObject({ status: "succeeded", polls: 1 });
    expect(stored?.outputs[0]?.key).toMatch(new RegExp(`^comfy/${rec.id}/11-0-portrait_\\d+_\\.png$`));
    expect(await env.FILES.head(stored?.outputs[0]?.key ?? "")).not.toBeNull();
  });

  it("retries a failed poll with backoff, and the dead-letter queue marks the job failed", async () => {
    await comfyFake({ down: true });
    const rec = await newJob();
    const result = await deliver("comfy-jobs", { jobId: rec.id, seq: 0 }, 3);
    // getQueueResult reports retries without their delay; the delay is retryDelay(attempts).
    expect(result.retryMessages).toEqual([{ msgId: "m-0" }]);
    expect([1, 2, 3, 6, 10].map(retryDelay)).toEqual([2, 4, 8, 60, 60]);
    expect((await jobStore(env, rec.id).get())?.lastError).toMatch(/not reachable/);
    const dead = await deliver("comfy-jobs-dlq", { jobId: rec.id, seq: 0 }, 11);
    expect(dead.explicitAcks).toEqual(["m-0"]);
    expect(await jobStore(env, rec.id).get()).toMatchObject({
      status: "failed",
      error: { kind: "poll_failed", message: expect.stringMatching(/не удалось получить статус.*not reachable/) },
    });
  });

  it("drops stale duplicates and polls of finished jobs without asking ComfyUI", async () => {
    await comfyFake();
    const rec = await newJob({ pollSeq: 5 });
    expect((await deliver("comfy-jobs", { jobId: rec.id, seq: 4 })).explicitAcks).toEqual(["m-4"]);
    const done = await newJob({ status: "succeeded" });
    expect((await deliver("comfy-jobs", { jobId: done.id, seq: 0 })).explicitAcks).toEqual(["m-0"]);
    expect(await comfyRequests()).toEqual([]);
  });

  it("a stale duplicate ahead of the current poll in one batch does not swallow it", async () => {
    await comfyFake();
    const rec = await newJob({ pollSeq: 5 });
    const result = await deliver("comfy-jobs", [
      { jobId: rec.id, seq: 4 },
      { jobId: rec.id, seq: 5 },
    ]);
    expect(result.explicitAcks.sort()).toEqual(["m-4", "m-5"]);
    expect(await comfyRequests()).toEqual([`GET /history/${rec.id}`]);
    expect(await jobStore(env, rec.id).get()).toMatchObject({ status: "pending", pollSeq: 6, polls: 1 });
  });

  it("re-enqueues a pending job as a new message instead of spending retries", async () => {
    await comfyFake();
    const rec = await newJob();
    const result = await deliver("comfy-jobs", { jobId: rec.id, seq: 0 }, 1);
    expect(result.explicitAcks).toEqual(["m-0"]);
    expect(result.retryMessages).toEqual([]);
    expect(await jobStore(env, rec.id).get()).toMatchObject({ status: "pending", pollSeq: 1, polls: 1 });
    expect(await comfyRequests()).toEqual([`GET /history/${rec.id}`]);
  });

  it("polls every COMFYUI_POLL_SECONDS for a minute, then about 5 % of the job's age, never past the deadline", () => {
    const now = Date.now();
    const rec = { createdAt: now, deadline: now + 3_600_000, pollSeconds: 2 } as JobRecord;
    expect(nextPollDelay(rec, now + 10_000)).toBe(2);
    expect(nextPollDelay(rec, now + 200_000)).toBe(10);
    expect(nextPollDelay(rec, now + 3_000_000)).toBe(30);
    expect(nextPollDelay(rec, now + 3_599_000)).toBe(1);
  });
});
