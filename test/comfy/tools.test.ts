/** Spec 001 end to end: generated tools over MCP (Streamable HTTP and SSE) and REST, through the real queue. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sniffImage, toBase64 } from "../../shared/images";
import { makePng } from "../helpers/images";
import { api, connect, fakeUrl } from "../helpers/mcp";
import { comfyFake, comfyRequests, holdComfyFake, jobData, textOf } from "./helpers";

let release: () => Promise<void> = async () => undefined;
beforeAll(async () => {
  release = await holdComfyFake("tools");
}, 300_000);
afterAll(() => release());
afterEach(() => comfyFake());

async function fetchBytes(
  url: string,
  init?: RequestInit,
): Promise<{ status: number; bytes: Uint8Array; type: string }> {
  const res = await api(new URL(url).pathname + new URL(url).search, { token: null, ...init });
  return {
    status: res.status,
    bytes: new Uint8Array(await res.arrayBuffer()),
    type: res.headers.get("content-type") ?? "",
  };
}

describe("txt2img_portrait", () => {
  it("runs over Streamable HTTP: preview, full-size link without token, values used", async () => {
    await comfyFake({ runMs: 300 });
    const client = await connect("/comfy/mcp");
    const res = await client.callTool({ name: "txt2img_portrait", arguments: { positive: "portrait of a cat" } });
    await client.close();
    expect(res.isError).toBeFalsy();
    const data = jobData(res);
    expect(data.status).toBe("succeeded");
    expect(data.values).toMatchObject({ positive: "portrait of a cat", negative: expect.stringContaining("blurry") });
    expect(data.generated).toEqual(["seed"]);
    expect(typeof data.values.seed).toBe("number");
    const blocks = res.content as { type: string; mimeType?: string; data?: string; uri?: string }[];
    const image = blocks.find((b) => b.type === "image");
    expect(image?.mimeType).toMatch(/^image\/(png|jpeg)$/);
    expect(blocks.find((b) => b.type === "resource_link")?.uri).toBe(data.outputs[0]?.url);
    expect(textOf(res)).toMatch(/Готово .*seed=\d+ \(сгенерирован\)/s);

    const file = await fetchBytes(data.outputs[0]?.url ?? "");
    expect(file.status).toBe(200);
    expect(file.type).toBe("image/png");
    expect(sniffImage(file.bytes)).toMatchObject({ width: 512, height: 768 });
    const reqs = await comfyRequests();
    expect(reqs.filter((r) => r === "POST /prompt")).toHaveLength(1);
    expect(reqs.filter((r) => r === "GET /view")).toHaveLength(1);
  });

  it("reports MCP progress while it waits, then the result", async () => {
    await comfyFake({ runMs: 5000 });
    const client = await connect("/comfy/mcp");
    const progress: { progress: number; message?: string }[] = [];
    const res = await client.callTool({ name: "txt2img_portrait", arguments: { positive: "x", seed: 5 } }, undefined, {
      onprogress: (p) => progress.push(p),
      timeout: 30_000,
    });
    await client.close();
    expect(jobData(res).status).toBe("succeeded");
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress[0]?.message).toMatch(/отправлена/);
    for (let i = 1; i < progress.length; i++)
      expect(progress[i]?.progress).toBeGreaterThan(progress[i - 1]?.progress ?? 0);
  });

  it("keeps the whole result under 1 MiB when outputs are large (JPEG preview)", async () => {
    await comfyFake({ noise: true });
    const res = await api("/tools/txt2img_portrait", { method: "POST", json: { positive: "noise" } });
    const body = await res.text();
    expect(res.status).toBe(200);
    expect(body.length).toBeLessThan(1024 * 1024);
    const parsed = JSON.parse(body) as { content: { type: string; mimeType?: string }[] };
    expect(parsed.content.find((b) => b.type === "image")?.mimeType).toBe("image/jpeg");
    const full = await fetchBytes(jobData(parsed).outputs[0]?.url ?? "");
    expect(full.bytes.length).toBeGreaterThan(500_000);
  });

  it("accepts OpenAI-style string arguments on POST /invoke and uses the given seed", async () => {
    await comfyFake();
    const res = await api("/invoke", {
      method: "POST",
      json: {
        name: "txt2img_portrait",
        arguments: '{"positive":"portrait photo, cinematic lighting","negative":"blurry, low quality","seed":123456}',
      },
    });
    expect(res.status).toBe(200);
    const data = jobData((await res.json()) as { structuredContent: unknown });
    expect(data.values).toEqual({
      positive: "portrait photo, cinematic lighting",
      negative: "blurry, low quality",
      seed: 123456,
    });
    expect(data.generated).toEqual([]);
  });
});

describe("img2img_restyle", () => {
  it("uploads a base64 image and maps its name into LoadImage (over SSE)", async () => {
    await comfyFake();
    const client = await connect("/comfy/sse", "sse");
    const image = toBase64(makePng(300, 200));
    const res = await client.callTool({
      name: "img2img_restyle",
      arguments: { image, positive: "oil painting", denoise: 0.4, sampler: "euler" },
    });
    await client.close();
    expect(res.isError).toBeFalsy();
    const data = jobData(res);
    expect(data.values).toMatchObject({
      image: expect.stringMatching(/^mcp_[0-9a-f]{20}\.png$/),
      denoise: 0.4,
      sampler: "euler",
    });
    expect(data.outputs[0]).toMatchObject({ width: 300, height: 200 });
    expect(await comfyRequests()).toContain("POST /upload/image");
  });

  it("downloads an image given by URL (POST /tools/{name}, data: URL too)", async () => {
    await comfyFake();
    const form = new FormData();
    form.append("image", new Blob([makePng(64, 48)], { type: "image/png" }), "src.png");
    await fetch(`${fakeUrl("comfyui")}/upload/image`, { method: "POST", body: form });
    const url = `${fakeUrl("comfyui")}/view?filename=src.png&type=input`;
    const res = await api("/tools/img2img_restyle", { method: "POST", json: { image: url, positive: "sketch" } });
    expect(res.status).toBe(200);
    expect(jobData((await res.json()) as { structuredContent: unknown }).outputs[0]).toMatchObject({
      width: 64,
      height: 48,
    });
    const dataUrl = `data:image/png;base64,${toBase64(makePng(32, 32))}`;
    const res2 = await api("/tools/img2img_restyle", { method: "POST", json: { image: dataUrl, positive: "sketch" } });
    expect(jobData((await res2.json()) as { structuredContent: unknown }).outputs[0]).toMatchObject({
      width: 32,
      height: 32,
    });
  });
});
