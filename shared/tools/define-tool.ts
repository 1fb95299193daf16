/**
 * @module The one declaration of a tool. `defineTool` is the only place a tool's name, schema,
 * annotations and handler live; MCP, REST, OpenAI, Gemini and ReAct views are derived from it.
 */
import type { z } from "zod";
import type { ToolContext } from "./context";

/** MCP tool annotations (hints for clients). Set them truthfully. */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** MCP content blocks a tool may return. */
export type ContentBlock =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "resource_link"; uri: string; name: string; mimeType?: string; description?: string };

/** The result of a tool call; identical for MCP, POST /invoke and POST /tools/{name}. */
export interface ToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** Everything that defines a tool. `input` is a zod object whose every field is `.describe()`d. */
export interface ToolDefinition<I extends z.ZodObject = z.ZodObject> {
  /** The seed's exact name, e.g. `anki.model_info`. */
  name: string;
  /** Human-readable title. */
  title: string;
  /** What it does, when to use it, what it returns. Every client pays for it in context: keep it tight. */
  description: string;
  input: I;
  /** Schema of `structuredContent`, when the result is data. */
  output?: z.ZodObject;
  annotations: ToolAnnotations;
  /**
   * Run the tool. Throw `ToolError` (or return `{isError: true}`) for failures the model can act
   * on; anything else thrown becomes a generic error result without internals.
   */
  handler(input: z.output<I>, ctx: ToolContext): Promise<ToolResult>;
}

/** A tool whose input type has been erased, as stored in the registry. */
export type AnyTool = ToolDefinition<z.ZodObject>;

/** A tool family: a route prefix (`/anki`) and its tools. */
export interface ToolFamily {
  /** Route segment and scope name, e.g. `anki`. */
  name: string;
  tools: readonly AnyTool[];
}

/**
 * Declare a tool. Returns the definition unchanged, typed so the handler sees the parsed input.
 * @example
 * export const greet = defineTool({
 *   name: "greet", title: "Greet", description: "…",
 *   input: z.object({ name: z.string().describe("User name, e.g. Алиса") }),
 *   annotations: { readOnlyHint: true },
 *   handler: async ({ name }) => textResult(`Привет, ${name}! Я твой MCP-сервер.`),
 * });
 */
export function defineTool<I extends z.ZodObject>(def: ToolDefinition<I>): AnyTool {
  return def as unknown as AnyTool;
}

/** Declare a family from its tools. */
export function defineFamily(name: string, tools: readonly AnyTool[]): ToolFamily {
  return { name, tools };
}
