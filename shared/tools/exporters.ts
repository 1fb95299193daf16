/**
 * @module Views of the registry for other tool-calling dialects, all derived from the same
 * declarations: MCP tools/list, OpenAI function tools (strict mode), Gemini functionDeclarations
 * (parametersJsonSchema) and the ReAct menu of spec 003 (`get_tool_descriptions_for_llm`).
 */
import type { AnyTool } from "./define-tool";
import { mcpToolEntry } from "./mcp-server";
import { providerName } from "./registry";
import { type JsonSchema, inputSchemaOf } from "./schema";

/** Keywords OpenAI strict mode rejects; they are dropped (defaults move into the description). */
const OPENAI_DROP = new Set([
  "$schema",
  "$id",
  "format",
  "default",
  "examples",
  "minLength",
  "maxLength",
  "title",
  "propertyNames",
  "minProperties",
  "maxProperties",
  "uniqueItems",
  "const",
]);

/** Keywords Gemini's parametersJsonSchema understands; everything else is dropped. */
const GEMINI_KEEP = new Set([
  "type",
  "format",
  "title",
  "description",
  "enum",
  "items",
  "prefixItems",
  "minItems",
  "maxItems",
  "minimum",
  "maximum",
  "anyOf",
  "oneOf",
  "properties",
  "additionalProperties",
  "required",
  "$ref",
  "$defs",
  "$id",
  "$anchor",
]);

type Json = JsonSchema;

/** The description with the schema's default spelled out (these formats drop `default`), unless it already says it. */
function withDefaultNote(description: unknown, def: unknown): string | undefined {
  const d = typeof description === "string" ? description : undefined;
  if (def === undefined || (d && /\bdefault\b/i.test(d))) return d;
  const note = `Default: ${JSON.stringify(def)}.`;
  return d ? `${d}${/[.!?…]$/.test(d) ? "" : "."} ${note}` : note;
}

function addNull(schema: Json): Json {
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: "null" }] };
  const t = schema.type;
  const out: Json = { ...schema };
  if (typeof t === "string") out.type = [t, "null"];
  else if (Array.isArray(t)) out.type = t.includes("null") ? t : [...t, "null"];
  else return { anyOf: [schema, { type: "null" }] };
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  return out;
}

/** Convert a JSON Schema to OpenAI strict form; `strict` turns false when the schema cannot be expressed strictly. */
export function toOpenAiStrict(schema: Json): { schema: Json; strict: boolean } {
  let strict = true;
  const walk = (s: Json): Json => {
    const out: Json = {};
    for (const [k, v] of Object.entries(s)) {
      if (OPENAI_DROP.has(k)) continue;
      if (k === "description") continue;
      if (k === "properties" && v && typeof v === "object") {
        const props: Json = {};
        const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
        for (const [pk, pv] of Object.entries(v as Record<string, Json>)) {
          const converted = walk(pv);
          props[pk] = required.has(pk) ? converted : addNull(converted);
        }
        out.properties = props;
        out.required = Object.keys(props);
      } else if (k === "required") {
        continue;
      } else if (k === "additionalProperties") {
        if (v !== false) strict = false;
        out.additionalProperties = v === false ? false : typeof v === "object" ? walk(v as Json) : v;
      } else if (k === "items" && v && typeof v === "object" && !Array.isArray(v)) {
        out.items = walk(v as Json);
      } else if ((k === "anyOf" || k === "oneOf" || k === "allOf") && Array.isArray(v)) {
        out.anyOf = v.map((x) => walk(x as Json));
        if (k === "allOf") strict = false;
      } else {
        out[k] = v;
      }
    }
    const desc = withDefaultNote(s.description, s.default);
    if (desc) out.description = desc;
    if (out.type === "object" || out.properties) {
      out.additionalProperties ??= false;
      if (!out.properties) {
        out.properties = {};
        out.required = [];
      }
    }
    return out;
  };
  const converted = walk(schema);
  return { schema: converted, strict };
}

/** An OpenAI Chat Completions function tool for `tool`. */
export function toOpenAiTool(tool: AnyTool): Record<string, unknown> {
  const { schema, strict } = toOpenAiStrict(inputSchemaOf(tool));
  return {
    type: "function",
    function: { name: providerName(tool.name), description: tool.description, parameters: schema, strict },
  };
}

function geminiClean(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(geminiClean);
  if (!s || typeof s !== "object") return s;
  const out: Json = {};
  for (const [k, v] of Object.entries(s as Json)) {
    if (!GEMINI_KEEP.has(k)) continue;
    if (k === "properties" && v && typeof v === "object") {
      out.properties = Object.fromEntries(Object.entries(v as Json).map(([pk, pv]) => [pk, geminiClean(pv)]));
    } else if (k === "$defs" && v && typeof v === "object") {
      out.$defs = Object.fromEntries(Object.entries(v as Json).map(([dk, dv]) => [dk, geminiClean(dv)]));
    } else {
      out[k] = geminiClean(v);
    }
  }
  const d = withDefaultNote((s as Json).description, (s as Json).default);
  if (d) out.description = d;
  return out;
}

/** A Gemini FunctionDeclaration from any JSON Schema (no `$schema`, provider-safe name). */
export function geminiDeclaration(name: string, description: string, schema: Json): Record<string, unknown> {
  return { name: providerName(name), description, parametersJsonSchema: geminiClean(schema) };
}

/** A Gemini FunctionDeclaration for `tool`. */
export function toGeminiDeclaration(tool: AnyTool): Record<string, unknown> {
  return geminiDeclaration(tool.name, tool.description, inputSchemaOf(tool));
}

/** The ReAct menu entry of spec 003: OpenAI-functions shaped `{name, description, parameters}` with the real name. */
export function toReactEntry(tool: AnyTool): Record<string, unknown> {
  const { $schema: _s, ...parameters } = inputSchemaOf(tool);
  return { name: tool.name, description: tool.description, parameters };
}

/** The ReAct system-prompt menu: a JSON list of every tool, ready to paste into a prompt. */
export function reactMenu(tools: readonly AnyTool[]): string {
  return JSON.stringify(tools.map(toReactEntry), null, 2);
}

export type ExportFormat = "mcp" | "openai" | "gemini" | "react";

/** Export `tools` in `format` (react is returned as text by the route). */
export function exportTools(tools: readonly AnyTool[], format: Exclude<ExportFormat, "react">): unknown {
  switch (format) {
    case "mcp":
      return { tools: tools.map(mcpToolEntry) };
    case "openai":
      return { tools: tools.map(toOpenAiTool) };
    case "gemini":
      return { tools: [{ functionDeclarations: tools.map(toGeminiDeclaration) }] };
  }
}
