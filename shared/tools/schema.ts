/** @module JSON Schema of a tool's input/output, derived from its zod schema once and cached. */
import { z } from "zod";
import type { AnyTool } from "./define-tool";

export type JsonSchema = Record<string, unknown>;

const caches = { input: new WeakMap<z.ZodType, JsonSchema>(), output: new WeakMap<z.ZodType, JsonSchema>() };

/** JSON Schema (draft 2020-12 subset) of a zod type, without `$schema`; computed once per schema and io. */
export function toJsonSchema(schema: z.ZodType, io: "input" | "output" = "input"): JsonSchema {
  const hit = caches[io].get(schema);
  if (hit) return hit;
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  caches[io].set(schema, rest);
  return rest;
}

/** The MCP `inputSchema` of a tool. */
export function inputSchemaOf(tool: AnyTool): JsonSchema {
  return toJsonSchema(tool.input, "input");
}

/** The MCP `outputSchema` of a tool, when it declares one. */
export function outputSchemaOf(tool: AnyTool): JsonSchema | undefined {
  return tool.output ? toJsonSchema(tool.output, "output") : undefined;
}
