/** Spec 001: the tool config is checked when it loads, and each problem is named. */
import { describe, expect, it } from "vitest";
import { ComfyConfigError, loadToolsConfig } from "../../workers/comfy/config";
import { TOOLS_JSON, WORKFLOWS } from "../../workers/comfy/workflows";

const portrait = WORKFLOWS["portrait.json"];

function config(fields: unknown[], extra: Record<string, unknown> = {}) {
  return { tools: [{ name: "t", description: "d", workflow: "portrait.json", fields, ...extra }] };
}
const text = (nodeId: unknown, field = "text", more: Record<string, unknown> = {}) => ({
  name: "positive",
  type: "string",
  description: "p",
  mapping: { nodeId, field },
  ...more,
});

function problems(raw: unknown, workflows = WORKFLOWS): string[] {
  try {
    loadToolsConfig(raw, workflows);
  } catch (err) {
    expect(err).toBeInstanceOf(ComfyConfigError);
    expect((err as Error).message).toContain("workflows/tools.json is invalid");
    return (err as ComfyConfigError).problems;
  }
  throw new Error("config was accepted");
}

describe("tools.json check", () => {
  it("accepts the shipped config: txt2img_portrait and img2img_restyle", () => {
    const specs = loadToolsConfig(TOOLS_JSON, WORKFLOWS);
    expect(specs.map((s) => s.name)).toEqual(["txt2img_portrait", "img2img_restyle"]);
  });

  it("names a missing workflow file", () => {
    const p = problems(config([text(9)], { workflow: "nope.json" }));
    expect(p.join()).toMatch(/workflow file "nope\.json" not found/);
  });

  it("names a nodeId absent from the workflow", () => {
    expect(problems(config([text(99)])).join()).toMatch(
      /field "positive": nodeId 99 is not in workflow portrait\.json/,
    );
  });

  it("names a field absent from the node's inputs", () => {
    const p = problems(config([text(9, "prompt")])).join();
    expect(p).toMatch(/node 9 \(CLIPTextEncode\) of portrait\.json has no input "prompt" \(it has: text, clip\)/);
  });

  it("names a duplicate tool name", () => {
    const tool = { name: "twin", description: "d", workflow: "portrait.json", fields: [text(9)] };
    expect(problems({ tools: [tool, tool] }).join()).toMatch(/duplicate tool name "twin"/);
  });

  it("refuses mapping onto a link input, a type mismatch and a doubly mapped input", () => {
    const p = problems(
      config([
        text(9, "clip"),
        { name: "steps", type: "string", description: "s", mapping: { nodeId: 3, field: "steps" } },
        { name: "again", type: "string", description: "a", mapping: { nodeId: 9, field: "clip" } },
      ]),
    ).join("\n");
    expect(p).toMatch(/input "clip" of node 9 is a link to another node/);
    expect(p).toMatch(/input "steps" of node 3 holds a number, but the field is string/);
    expect(p).toMatch(/fields "positive" and "again" both map to node 9\.clip/);
  });

  it("checks enum lists, generation ranges and field names", () => {
    const p = problems(
      config([
        { name: "s", type: "enum", description: "x", mapping: { nodeId: 3, field: "sampler_name" } },
        {
          name: "seed",
          type: "integer",
          description: "x",
          mapping: { nodeId: 3, field: "seed" },
          generation: { strategy: "randomInt", min: 10, max: 1 },
        },
        { name: "seed", type: "string", description: "x", mapping: { nodeId: 10, field: "text" } },
      ]),
    ).join("\n");
    expect(p).toMatch(/type "enum" needs an "enum" list/);
    expect(p).toMatch(/generation min 10 is greater than max 1/);
    expect(p).toMatch(/duplicate field name "seed"/);
  });

  it("names shape errors by path and refuses a UI-format workflow", () => {
    expect(problems({ tools: [{ name: "x" }] }).join()).toMatch(/tools\.0\.description/);
    expect(problems({ tools: [] }).join()).toMatch(/at least one tool/);
    const ui = { "portrait.json": { nodes: [], links: [] } };
    expect(problems(config([text(9)]), ui).join()).toMatch(/Save \(API Format\)/);
    expect(portrait).toBeTruthy();
  });
});
