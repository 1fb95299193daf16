/** @module Helpers that build tool results, so no tool hand-writes content arrays. */
import type { ContentBlock, ToolResult } from "./define-tool";

/** A plain text result. */
export function textResult(text: string): ToolResult {
  return { content: [{ type: "text", text }] };
}

/**
 * A data result: `structuredContent` plus the same data as JSON text, for clients that only
 * read text (as the MCP spec recommends). `text` overrides the JSON rendering.
 */
export function dataResult(data: Record<string, unknown>, text?: string): ToolResult {
  return {
    content: [{ type: "text", text: text ?? JSON.stringify(data, null, 2) }],
    structuredContent: data,
  };
}

/** An image content block from base64 data. */
export function imageBlock(data: string, mimeType: string): ContentBlock {
  return { type: "image", data, mimeType };
}

/** An error result with a message the model can act on. */
export function errorResult(message: string, data?: Record<string, unknown>): ToolResult {
  const result: ToolResult = { content: [{ type: "text", text: message }], isError: true };
  if (data) result.structuredContent = data;
  return result;
}
