import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineFamily, defineTool } from "../../shared/tools/define-tool";
import { toOpenAiStrict } from "../../shared/tools/exporters";
import { ToolRegistry, providerName } from "../../shared/tools/registry";
import { textResult } from "../../shared/tools/results";
import { api } from "../helpers/mcp";

type Json = Record<string, unknown>;
const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** Gemini: starts with a letter or underscore; letters, digits, _ . : - ; at most 64 (we use the OpenAI-safe subset). */
const GEMINI_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;

/** Every rule of OpenAI strict mode, checked recursively; returns the violations. */
function strictViolations(s: Json, path = "$"): string[] {
  const out: string[] = [];
  if ("format" in s) out.push(`${path}: has format`);
  if ("default" in s) out.push(`${path}: has default`);
  if ("$schema" in s) out.push(`${path}: has $schema`);
  const isObject = s.type === "object" || (Array.isArray(s.type) && s.type.includes("object"));
  if (isObject) {
    if (s.additionalProperties !== false) out.push(`${path}: additionalProperties is not false`);
    const props = Object.keys((s.properties as Json | undefined) ?? {});
    const req = (s.required as string[] | undefined) ?? [];
    if (props.length !== req.length || props.some((p) => !req.includes(p)))
      out.push(`${path}: not every property is required`);
  }
  for (const [k, v] of Object.entries((s.properties as Record<string, Json> | undefined) ?? {}))
    out.push(...strictViolations(v, `${path}.${k}`));
  if (s.items && typeof s.items === "object") out.push(...strictViolations(s.items as Json, `${path}[]`));
  for (const alt of (s.anyOf as Json[] | undefined) ?? []) out.push(...strictViolations(alt, `${path}|`));
  return out;
}

/** The JSON Schema subset Gemini documents for parametersJsonSchema. */
const GEMINI_KEYWORDS = new Set(
  "$id $defs $ref $anchor type format title description enum items prefixItems minItems maxItems minimum maximum anyOf oneOf properties additionalProperties required".split(
    " ",
  ),
);

/** Every keyword used in a schema (property names are not keywords). */
function schemaKeywords(s: unknown): string[] {
  if (Array.isArray(s)) return s.flatMap(schemaKeywords);
  if (!s || typeof s !== "object") return [];
  return Object.entries(s).flatMap(([k, v]) => {
    if (k === "properties" || k === "$defs") return [k, ...Object.values(v as Json).flatMap(schemaKeywords)];
    if (k === "enum" || k === "required") return [k];
    return [k, ...schemaKeywords(v)];
  });
}

function hasKeyDeep(v: unknown, key: string): boolean {
  if (Array.isArray(v)) return v.some((x) => hasKeyDeep(x, key));
  if (v && typeof v === "object") return Object.entries(v).some(([k, x]) => k === key || hasKeyDeep(x, key));
  return false;
}

const sample = defineTool({
  name: "demo.nested_tool",
  title: "Demo",
  description: "Demo tool",
  input: z.strictObject({
    query: z.string().describe("Text"),
    limit: z.number().int().min(1).max(50).default(5).describe("How many"),
    depth: z.number().int().default(3).describe("Depth (default 3)."),
    mode: z.enum(["a", "b"]).optional().describe("Mode"),
    site: z.url().optional().describe("URL"),
    items: z
      .array(z.strictObject({ name: z.string().describe("n"), tags: z.array(z.string()).optional().describe("t") }))
      .describe("Items"),
  }),
  annotations: { readOnlyHint: true },
  handler: async () => textResult("ok"),
});

describe("exporters", () => {
  it("turns a schema with optional, default, enum, url and nested objects into valid OpenAI strict mode", () => {
    const { schema, strict } = toOpenAiStrict(z.toJSONSchema(sample.input, { io: "input" }) as Json);
    expect(strict).toBe(true);
    expect(strictViolations(schema)).toEqual([]);
    const props = schema.properties as Record<string, Json>;
    expect(props.query).toEqual({ type: "string", description: "Text" });
    expect(props.limit).toMatchObject({ type: ["integer", "null"], description: "How many. Default: 5." });
    expect(props.depth).toMatchObject({ description: "Depth (default 3)." });
    expect(props.mode).toMatchObject({ type: ["string", "null"], enum: ["a", "b", null] });
    expect(props.site).toMatchObject({ type: ["string", "null"] });
  });

  it("marks schemas with free-form maps as non-strict instead of lying", () => {
    const { strict } = toOpenAiStrict({
      type: "object",
      properties: { fields: { type: "object", additionalProperties: { type: "string" } } },
      required: ["fields"],
    });
    expect(strict).toBe(false);
  });

  it("maps names reversibly and refuses names that would collide", () => {
    const reg = new ToolRegistry([defineFamily("demo", [sample])]);
    expect(providerName("anki.model_info")).toBe("anki_model_info");
    expect(reg.get("demo_nested_tool")?.name).toBe("demo.nested_tool");
    expect(reg.get("demo.nested_tool")?.name).toBe("demo.nested_tool");
    const twin = { ...sample, name: "demo_nested_tool" };
    expect(() => new ToolRegistry([defineFamily("demo", [sample, twin])])).toThrow(/same provider name/);
    expect(() => new ToolRegistry([defineFamily("a", [sample]), defineFamily("b", [sample])])).toThrow(
      /Duplicate tool name/,
    );
  });

  /**
   * Tools whose input holds a free-form map cannot be strict (strict mode needs additionalProperties:
   * false on every object): Anki note fields keyed by the note type's own field names, and Qdrant
   * payload filters keyed by the user's payload fields. Every other tool must stay strict.
   */
  const NON_STRICT = ["anki_add_from_model", "anki_add_notes", "qdrant-find"];

  it("GET /tools?format=openai is strict mode for every tool but the free-form-map ones, with names that invoke back", async () => {
    const { tools } = (await (await api("/tools?format=openai")).json()) as {
      tools: { type: string; function: { name: string; parameters: Json; strict: boolean } }[];
    };
    const mcp = (await (await api("/tools?format=mcp")).json()) as { tools: { name: string }[] };
    expect(tools.map((t) => t.function.name).sort()).toEqual(mcp.tools.map((m) => providerName(m.name)).sort());
    expect(tools.filter((t) => !t.function.strict).map((t) => t.function.name)).toEqual(NON_STRICT);
    for (const t of tools) {
      expect(t.type).toBe("function");
      expect(t.function.name).toMatch(NAME);
      if (t.function.strict) expect(strictViolations(t.function.parameters), t.function.name).toEqual([]);
      expect(hasKeyDeep(t.function.parameters, "format"), t.function.name).toBe(false);
      // The provider name reaches the same tool: arguments that are not an object fail its validation (400), not 404.
      const back = await api("/invoke", { method: "POST", json: { name: t.function.name, arguments: [] } });
      expect(back.status, t.function.name).toBe(400);
      expect(((await back.json()) as { error: string }).error, t.function.name).toMatch(/^Invalid arguments: /);
    }
  });

  it("GET /tools?format=gemini gives functionDeclarations with parametersJsonSchema and no $schema", async () => {
    const body = (await (await api("/tools?format=gemini")).json()) as {
      tools: { functionDeclarations: { name: string; description: string; parametersJsonSchema: Json }[] }[];
    };
    const decls = body.tools[0]?.functionDeclarations ?? [];
    expect(decls.length).toBeGreaterThan(1);
    for (const d of decls) {
      expect(d.name).toMatch(GEMINI_NAME);
      expect(
        schemaKeywords(d.parametersJsonSchema).filter((k) => !GEMINI_KEYWORDS.has(k)),
        d.name,
      ).toEqual([]);
      expect(d.parametersJsonSchema.type).toBe("object");
      expect(hasKeyDeep(d, "$schema")).toBe(false);
      expect(hasKeyDeep(d, "parameters")).toBe(false);
    }
  });

  it("GET /tools (mcp) carries titles, annotations and output schemas; react is the seed's menu", async () => {
    const { tools } = (await (await api("/tools")).json()) as { tools: Json[] };
    const calc = tools.find((t) => t.name === "calculator");
    expect(calc).toMatchObject({
      title: "Calculator",
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      inputSchema: { type: "object", required: ["expression"], additionalProperties: false },
      outputSchema: { type: "object" },
    });
    const react = await api("/tools?format=react");
    expect(react.headers.get("Content-Type")).toMatch(/^text\/plain/);
    const menu = JSON.parse(await react.text()) as { name: string; description: string; parameters: Json }[];
    expect(menu.find((m) => m.name === "greet")).toEqual({
      name: "greet",
      description: expect.any(String),
      parameters: {
        type: "object",
        properties: { name: { type: "string", minLength: 1, description: "User name, e.g. Алиса" } },
        required: ["name"],
        additionalProperties: false,
      },
    });
  });

  it("describes every field of every tool", async () => {
    const { tools } = (await (await api("/tools")).json()) as { tools: { name: string; inputSchema: Json }[] };
    for (const t of tools) {
      for (const [field, schema] of Object.entries((t.inputSchema.properties as Record<string, Json>) ?? {})) {
        expect(
          typeof schema.description === "string" && schema.description.length > 0,
          `${t.name}.${field} has no description`,
        ).toBe(true);
      }
    }
  });

  /**
   * Every client pays for tools/list in context on every turn. Budget: 12,000 tokens for all tools
   * together and 1,500 per tool, estimated as UTF-8 bytes / 4 of the tools/list JSON (a
   * conservative proxy for BPE tokenizers; Cyrillic costs more bytes, which errs on the safe side).
   */
  it("keeps the total size of all tool descriptions within the documented token budget", async () => {
    const { tools } = (await (await api("/tools")).json()) as { tools: { name: string }[] };
    const tokens = (v: unknown) => Math.ceil(new TextEncoder().encode(JSON.stringify(v)).length / 4);
    for (const t of tools) expect(tokens(t), `${t.name} is too large`).toBeLessThanOrEqual(1500);
    expect(tokens(tools)).toBeLessThanOrEqual(12_000);
  });
});
