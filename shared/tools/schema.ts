/** @module JSON Schema of a tool's input/output, derived from its zod schema once and cached. */
import { z } from "zod";
import type { AnyTool } from "./define-tool";

export type JsonSchema = Record<string, unknown>;

const inputCache = new WeakMap<z.ZodType, JsonSchema>();

/** JSON Schema (draft 2020-12 subset) of a zod type, without `$schema`, as inputs are accepted. */
export function toJsonSchema(schema: z.ZodType, io: "input" | "output" = "input"): JsonSchema {
  const hit = io === "input" ? inputCache.get(schema) : undefined;
  if (hit) return hit;
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  if (io === "input") inputCache.set(schema, rest);
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
