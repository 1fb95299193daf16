/** Spec 001: generated tools have the canonical structure; arguments are mapped and generated values reported. */
import { describe, expect, it } from "vitest";
import { buildPrompt } from "../../workers/comfy/prompt";
import { comfyFamily, comfySpecs } from "../../workers/comfy/index";
import { inputSchemaOf } from "../../shared/tools/schema";
import { exportTools } from "../../shared/tools/exporters";
import { api } from "../helpers/mcp";

/** The inputSchema of spec 001's example, copied from the seed as is. */
const SEED_EXAMPLE = `{
    "type": "object",
    "properties": {
      "positive": {
        "type": "string",
        "description": "Позитивный промпт (text node #9)"
      },
      "negative": {
        "type": "string",
        "description": "Негативный промпт (text node #10)"
      },
      "seed": {
        "type": "integer",
        "description": "Сид генерации (если не передан — будет сгенерирован случайно)"
      }
    },
    "required": ["positive"],
    "additionalProperties": false
  }`;

const tool = (name: string) => {
  const t = comfyFamily.tools.find((x) => x.name === name);
  if (!t) throw new Error(`no tool ${name}`);
  return t;
};
const spec = (name: string) => {
  const s = comfySpecs.find((x) => x.name === name);
  if (!s) throw new Error(`no spec ${name}`);
  return s;
};

describe("generated tools", () => {
  it("txt2img_portrait's inputSchema equals the seed's example byte for byte", () => {
    const expected = JSON.stringify(JSON.parse(SEED_EXAMPLE));
    expect(JSON.stringify(inputSchemaOf(tool("txt2img_portrait")))).toBe(expected);
  });

  it("tools/list on /comfy/mcp carries the seed's inputSchema on the wire, byte for byte", async () => {
    const headers = { Accept: "application/json, text/event-stream", "Content-Type": "application/json" };
    const init = await api("/comfy/mcp", {
      method: "POST",
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      }),
    });
    const sid = init.headers.get("mcp-session-id") ?? "";
    await init.text();
    const session = { ...headers, "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18" };
    const post = (body: unknown) => api("/comfy/mcp", { method: "POST", headers: session, body: JSON.stringify(body) });
    await (await post({ jsonrpc: "2.0", method: "notifications/initialized" })).text();
    const raw = await (await post({ jsonrpc: "2.0", id: 2, method: "tools/list" })).text();
    await api("/comfy/mcp", { method: "DELETE", headers: session });
    const entry = `"name":"txt2img_portrait","title":`;
    expect(raw).toContain(entry);
    const from = raw.indexOf(entry);
    expect(raw.slice(from)).toContain(`"inputSchema":${JSON.stringify(JSON.parse(SEED_EXAMPLE))},`);
  });

  it("describes every field with its node, and lists enum values", () => {
    const s = inputSchemaOf(tool("img2img_restyle")) as { properties: Record<string, Record<string, unknown>> };
    expect(s.properties.image?.description).toMatch(/^Исходное изображение \(image node #1\)\. .*base64/);
    expect(s.properties.denoise).toMatchObject({ type: "number" });
    expect(s.properties.sampler).toMatchObject({
      type: "string",
      enum: ["euler", "euler_ancestral", "dpmpp_2m", "dpmpp_2m_sde"],
    });
    expect(tool("img2img_restyle").description).toMatch(/comfy\.job_status/);
  });

  it("exports to OpenAI strict mode (provider-safe names, all properties required, nullable optionals)", () => {
    type OpenAiTool = { function: { name: string; strict: boolean; parameters: { required: string[] } } };
    const [fn] = (exportTools([tool("txt2img_portrait")], "openai") as { tools: OpenAiTool[] }).tools;
    expect(fn?.function.name).toBe("txt2img_portrait");
    expect(fn?.function.parameters.required).toEqual(["positive", "negative", "seed"]);
  });

  it("rejects unknown arguments and non-integer seeds", () => {
    const input = tool("txt2img_portrait").input;
    expect(input.safeParse({ positive: "x", steps: 3 }).success).toBe(false);
    expect(input.safeParse({ positive: "x", seed: 1.5 }).success).toBe(false);
    expect(input.safeParse({ negative: "x" }).success).toBe(false);
  });
});

describe("mapping and generation", () => {
  it("substitutes arguments into a deep copy of the workflow by mapping", () => {
    const s = spec("txt2img_portrait");
    const before = JSON.stringify(s.workflowJson);
    const built = buildPrompt(s, { positive: "a cat", negative: "dogs", seed: 42 });
    expect(built.prompt["9"]?.inputs.text).toBe("a cat");
    expect(built.prompt["10"]?.inputs.text).toBe("dogs");
    expect(built.prompt["3"]?.inputs.seed).toBe(42);
    expect(built.generated).toEqual([]);
    expect(JSON.stringify(s.workflowJson)).toBe(before);
  });

  it("keeps the workflow's value for an absent field and reports it", () => {
    const built = buildPrompt(spec("txt2img_portrait"), { positive: "a cat", seed: 7 });
    expect(built.values).toEqual({
      positive: "a cat",
      negative: "blurry, low quality, deformed, watermark, text",
      seed: 7,
    });
  });

  it("generates a missing seed with randomInt in its range and reports it", () => {
    const seeds = new Set<number>();
    for (let i = 0; i < 50; i++) {
      const built = buildPrompt(spec("txt2img_portrait"), { positive: "a cat" });
      const seed = built.values.seed as number;
      expect(Number.isInteger(seed) && seed >= 1 && seed <= 999999999).toBe(true);
      expect(built.prompt["3"]?.inputs.seed).toBe(seed);
      expect(built.generated).toEqual(["seed"]);
      seeds.add(seed);
    }
    expect(seeds.size).toBeGreaterThan(45);
    expect(buildPrompt(spec("txt2img_portrait"), { positive: "x" }, () => 5).values.seed).toBe(5);
  });
});
