/** Failure paths: ComfyUI validation (400 node_errors), execution_error, down, slow, bad arguments. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { toBase64 } from "../../shared/images";
import { makePng } from "../helpers/images";
import { api, connect, fakeUrl } from "../helpers/mcp";
import { callWith, comfyFake, holdComfyFake, comfyRequests, jobData, textOf } from "./helpers";

let release: () => Promise<void> = async () => undefined;
beforeAll(async () => {
  release = await holdComfyFake("failures");
}, 300_000);
afterAll(() => release());
afterEach(() => comfyFake());

describe("ComfyUI rejects the workflow (HTTP 400)", () => {
  it("names node, input, reason and the argument to fix", async () => {
    await comfyFake();
    const client = await connect("/comfy/mcp");
    const res = await client.callTool({ name: "txt2img_portrait", arguments: { positive: "x", seed: -5 } });
    await client.close();
    expect(res.isError).toBe(true);
    expect(textOf(res)).toBe(
      'ComfyUI отклонил workflow: узел 3 (KSampler), вход seed — аргумент "seed": Value -5 smaller than min of 0.',
    );
    const data = res.structuredContent as { node_errors: Record<string, unknown>[] };
    expect(data.node_errors[0]).toMatchObject({
      node_id: "3",
      class_type: "KSampler",
      input: "seed",
      type: "value_smaller_than_min",
    });
  });

  it("names a missing model (value_not_in_list) on REST with 422", async () => {
    await comfyFake({ noModels: true });
    const res = await api("/tools/txt2img_portrait", { method: "POST", json: { positive: "x" } });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: string };
    expect(body.error).toMatch(
      /узел 4 \(CheckpointLoaderSimple\), вход ckpt_name: Value not in list: ckpt_name: 'v1-5-pruned-emaonly\.safetensors' not in \[\]/,
    );
    expect(await comfyRequests()).toEqual(["POST /prompt"]);
  });
});

describe("ComfyUI fails while running", () => {
  it("reports execution_error with node and exception", async () => {
    await comfyFake({ fault: "execution_error", runMs: 200 });
    const res = await callWith("txt2img_portrait", { positive: "x" });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/в узле 3 \(KSampler\): torch\.OutOfMemoryError: Allocation on device/);
    expect(jobData(res)).toMatchObject({ status: "failed", error: { kind: "execution_error", node_id: "3" } });
  });

  it("reports an interrupted run", async () => {
    await comfyFake({ fault: "interrupt" });
    const res = await callWith("txt2img_portrait", { positive: "x" });
    expect(jobData(res)).toMatchObject({ status: "failed", error: { kind: "execution_interrupted" } });
  });
});

describe("ComfyUI unreachable or slow", () => {
  it("down: says where and what to check, on MCP and REST (502)", async () => {
    await comfyFake({ down: true });
    const res = await callWith("txt2img_portrait", { positive: "x" });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toContain(
      `ComfyUI is not reachable at ${fakeUrl("comfyui")}: is ComfyUI running, and is the tunnel up?`,
    );
    const rest = await api("/tools/txt2img_portrait", { method: "POST", json: { positive: "x" } });
    expect(rest.status).toBe(502);
  });

  it("slow: times out without resubmitting and says the prompt may have been queued", async () => {
    await comfyFake({ latencyMs: 1200 });
    const res = await callWith("txt2img_portrait", { positive: "x" }, { COMFYUI_TIMEOUT_MS: "300" });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/ComfyUI did not answer within 300 ms .*may or may not have been queued/);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await comfyRequests()).filter((r) => r === "POST /prompt")).toHaveLength(1);
  });

  it("slow but the prompt landed: the lost answer is recovered from /queue", async () => {
    await comfyFake({ runMs: 3000 });
    let calls = 0;
    const flaky: typeof fetch = async (input, init) => {
      if (String(input).endsWith("/prompt") && calls++ === 0) {
        await fetch(input, init);
        throw new TypeError("Network connection lost.");
      }
      return fetch(input, init);
    };
    const res = await callWith("txt2img_portrait", { positive: "x" }, {}, { fetch: flaky });
    expect(jobData(res).status).toBe("succeeded");
    expect((await comfyRequests()).filter((r) => r === "POST /prompt")).toHaveLength(1);
  });

  it("a submit lost before it reached ComfyUI is confirmed absent, then sent once more", async () => {
    await comfyFake();
    let dropped = false;
    const dropFirst: typeof fetch = async (input, init) => {
      if (String(input).endsWith("/prompt") && !dropped) {
        dropped = true;
        throw new TypeError("Network connection lost.");
      }
      return fetch(input, init);
    };
    const res = await callWith("txt2img_portrait", { positive: "x" }, {}, { fetch: dropFirst });
    expect(jobData(res).status).toBe("succeeded");
    const reqs = await comfyRequests();
    expect(reqs.slice(0, 3)).toEqual(["GET /queue", expect.stringMatching(/^GET \/history\//), "POST /prompt"]);
    expect(reqs.filter((r) => r === "POST /prompt")).toHaveLength(1);
  });
});

describe("behind a Cloudflare Tunnel", () => {
  const access = { CF_ACCESS_CLIENT_ID: "abc.access", CF_ACCESS_CLIENT_SECRET: "0123456789abcdef0123456789abcdef" };

  it("sends the Access service token with redirect: manual on every ComfyUI request", async () => {
    await comfyFake();
    const seen: { url: string; id: string | null; secret: string | null; redirect?: string }[] = [];
    const spy: typeof fetch = async (input, init) => {
      const h = new Headers(init?.headers);
      seen.push({
        url: String(input),
        id: h.get("CF-Access-Client-Id"),
        secret: h.get("CF-Access-Client-Secret"),
        redirect: init?.redirect,
      });
      return fetch(input, init);
    };
    const image = `data:image/png;base64,${toBase64(makePng(16, 16))}`;
    await callWith("img2img_restyle", { image, positive: "x" }, { ...access, COMFYUI_WAIT_MS: "0" }, { fetch: spy });
    expect(seen.map((r) => new URL(r.url).pathname)).toEqual(["/upload/image", "/prompt"]);
    for (const r of seen)
      expect(r).toMatchObject({
        id: access.CF_ACCESS_CLIENT_ID,
        secret: access.CF_ACCESS_CLIENT_SECRET,
        redirect: "manual",
      });
  });

  it("reports an Access login redirect as a rejected service token, without the secret", async () => {
    const login: typeof fetch = async () =>
      new Response("<html>Sign in</html>", {
        status: 302,
        headers: { Location: "https://team.cloudflareaccess.com/cdn-cgi/access/login/comfy.example.com" },
      });
    const res = await callWith("txt2img_portrait", { positive: "x" }, access, { fetch: login });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toBe("Cloudflare Access rejected the service token");
    expect(JSON.stringify(res)).not.toContain(access.CF_ACCESS_CLIENT_SECRET);
  });
});

describe("bad arguments", () => {
  it("names the missing or unknown field", async () => {
    const res = await callWith("txt2img_portrait", { negative: "x", steps: 3 });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/positive: is required/);
    expect(textOf(res)).toMatch(/unknown field\(s\) "steps"/);
  });

  it("says an image argument is not an image", async () => {
    await comfyFake();
    const res = await callWith("img2img_restyle", { image: "bm90IGFuIGltYWdl", positive: "x" });
    expect(textOf(res)).toBe("image: это не PNG, JPEG, GIF или WebP.");
    const bad = await callWith("img2img_restyle", { image: "***", positive: "x" });
    expect(textOf(bad)).toMatch(/^image: ожидается изображение в base64, data:-URL или ссылка http\(s\)/);
    expect(await comfyRequests()).toEqual([]);
  });
});
