/** Jobs: a call that outlives its wait returns a job; comfy.job_status and GET /comfy/jobs/{id} follow it. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { api, connect } from "../helpers/mcp";
import { callWith, comfyFake, holdComfyFake, comfyRequests, jobData, sleep, textOf } from "./helpers";
import { fakeStats } from "../helpers/mcp";

let release: () => Promise<void> = async () => undefined;
beforeAll(async () => {
  release = await holdComfyFake("jobs");
}, 300_000);
afterAll(() => release());
afterEach(() => comfyFake());

describe("long jobs", () => {
  it("returns {job_id, status, status_url} after the wait, then job_status gives progress and the result", async () => {
    await comfyFake({ runMs: 5000 });
    const first = await callWith("txt2img_portrait", { positive: "slow cat" }, { COMFYUI_WAIT_MS: "1000" });
    expect(first.isError).toBeFalsy();
    const pending = jobData(first);
    expect(pending).toMatchObject({ status: "pending", status_url: `https://mcp.test/comfy/jobs/${pending.job_id}` });
    expect(textOf(first)).toMatch(/comfy\.job_status/);
    expect(first.progressLog.length).toBeGreaterThan(0);

    const client = await connect("/comfy/mcp");
    const now = await client.callTool({ name: "comfy.job_status", arguments: { job_id: pending.job_id } });
    expect(jobData(now)).toMatchObject({ status: "pending", queue: { state: "running" } });
    expect(textOf(now)).toMatch(/ComfyUI выполняет задачу/);

    const rest = await api(`/comfy/jobs/${pending.job_id}`);
    expect(rest.status).toBe(200);
    expect(await rest.json()).toMatchObject({ job_id: pending.job_id, status: "pending" });

    const done = await client.callTool({
      name: "comfy.job_status",
      arguments: { job_id: pending.job_id, wait_seconds: 15 },
    });
    await client.close();
    expect(jobData(done)).toMatchObject({ status: "succeeded", values: { positive: "slow cat" } });
    expect((done.content as { type: string }[]).some((b) => b.type === "image")).toBe(true);
    const after = (await (await api(`/comfy/jobs/${pending.job_id}`)).json()) as {
      status: string;
      outputs: { url: string }[];
    };
    expect(after.status).toBe("succeeded");
    expect(after.outputs[0]?.url).toMatch(/\/files\/comfy\/.+\?exp=\d+&sig=/);
  });

  it("a queued job reports how many are ahead", async () => {
    await comfyFake({ runMs: 4000 });
    const a = await callWith("txt2img_portrait", { positive: "a" }, { COMFYUI_WAIT_MS: "0" });
    const b = await callWith("txt2img_portrait", { positive: "b" }, { COMFYUI_WAIT_MS: "0" });
    const status = await callWith("comfy.job_status", { job_id: jobData(b).job_id });
    expect(jobData(status).queue).toEqual({ state: "pending", ahead: 1 });
    expect(textOf(status)).toMatch(/в очереди ComfyUI, перед ней задач: 1/);
    const done = await callWith("comfy.job_status", { job_id: jobData(a).job_id, wait_seconds: 10 });
    expect(jobData(done).status).toBe("succeeded");
    expect(jobData(await callWith("comfy.job_status", { job_id: jobData(b).job_id, wait_seconds: 10 })).status).toBe(
      "succeeded",
    );
  });

  it("marks a job timed out past COMFYUI_MAX_JOB_MS and leaves the ComfyUI job alone", async () => {
    await comfyFake({ runMs: 60_000, parallel: true });
    const vars = { COMFYUI_WAIT_MS: "0", COMFYUI_MAX_JOB_MS: "1500", COMFYUI_POLL_SECONDS: "1" };
    const started = await callWith("txt2img_portrait", { positive: "forever" }, vars);
    const id = jobData(started).job_id;
    const res = await callWith("comfy.job_status", { job_id: id, wait_seconds: 10 });
    expect(jobData(res)).toMatchObject({ status: "timed_out", error: { kind: "timed_out" } });
    expect(res.isError).toBeFalsy();
    expect(textOf(res)).toMatch(/прервана по времени/);
    const reqs = await comfyRequests();
    expect(reqs).not.toContain("POST /interrupt");
    expect(reqs).not.toContain("POST /queue");
  });

  it("makes no ComfyUI requests while no job is pending", async () => {
    await comfyFake();
    const res = await callWith("txt2img_portrait", { positive: "quick" });
    expect(jobData(res).status).toBe("succeeded");
    await comfyFake();
    await sleep(5000);
    expect((await fakeStats("comfyui")).requests).toBe(0);
  });

  it("says when a job id is unknown", async () => {
    const res = await callWith("comfy.job_status", { job_id: "00000000-0000-4000-8000-000000000000" });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/не найдена/);
    expect((await api("/comfy/jobs/nope")).status).toBe(404);
  });

  it("guards GET /comfy/jobs/{id} with the bearer token and the comfy scope", async () => {
    expect((await api("/comfy/jobs/00000000-0000-4000-8000-000000000000", { token: null })).status).toBe(401);
    expect((await api("/comfy/jobs/00000000-0000-4000-8000-000000000000", { token: "test-token-core" })).status).toBe(
      403,
    );
  });
});
