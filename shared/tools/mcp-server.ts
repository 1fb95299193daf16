/**
 * @module Builds an MCP SDK `Server` over the registry: tools/list and tools/call from the same
 * declarations as REST, honest capabilities (tools without listChanged; logging with setLevel),
 * progress notifications, and tool logs forwarded to the client as notifications/message.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  type LoggingLevel,
  McpError,
  SetLevelRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { secretsOf } from "../config";
import { type Logger, redact } from "../log";
import type { Progress, ToolContext } from "./context";
import type { AnyTool, ToolResult } from "./define-tool";
import type { ToolRegistry } from "./registry";
import { inputSchemaOf, outputSchemaOf } from "./schema";

/** MCP log levels, least severe first (RFC 5424 order, as the spec lists them). */
const LEVELS: readonly LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

export const SERVER_INFO = { name: "mcp-tools-worker", title: "MCP tools on Cloudflare Workers", version: "0.1.0" };

/** The MCP `tools/list` entry of a tool. */
export function mcpToolEntry(tool: AnyTool): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputSchemaOf(tool),
    annotations: { title: tool.title, ...tool.annotations },
  };
  const out = outputSchemaOf(tool);
  if (out) entry.outputSchema = out;
  return entry;
}

/** What a session supplies per call: everything of ToolContext except what the request decides. */
export type ContextBase = Omit<ToolContext, "signal" | "progress" | "log"> & { log: Logger };

/**
 * Create a Server exposing the registry's tools within `scope` (family names; undefined = all).
 * `base()` is called per request so settings and bindings stay current.
 */
export function createToolServer(
  registry: ToolRegistry,
  scope: readonly string[] | undefined,
  base: () => ContextBase,
): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {}, logging: {} },
    instructions:
      "Tools reach the user's own apps (Anki, ComfyUI, Qdrant, web search, card art). Errors come back as tool results that say what to fix.",
  });

  // One Server per session, so the level the client chose is simply kept here. (The SDK's own
  // handler keys it by the transport's session id, which a tool's log call cannot pass.)
  let minLevel: LoggingLevel | undefined;
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    minLevel = request.params.level;
    return {};
  });

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: registry.list(scope).map(mcpToolEntry) as never,
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = registry.get(request.params.name, scope);
    if (!tool) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool: ${request.params.name}. Call tools/list to see the available tools.`,
      );
    }
    const b = base();
    const token = request.params._meta?.progressToken;
    const progress = async (p: Progress) => {
      if (token === undefined) return;
      await extra
        .sendNotification({ method: "notifications/progress", params: { progressToken: token, ...p } })
        .catch(() => undefined);
    };
    // Sent as part of this call (like progress), so it reaches the client on the call's own stream;
    // redacted like the server log, since the data may quote an upstream's answer.
    const forward = (level: LoggingLevel, msg: string, data?: Record<string, unknown>) => {
      if (minLevel && LEVELS.indexOf(level) < LEVELS.indexOf(minLevel)) return;
      const payload = redact(data ? { msg, ...data } : msg, secretsOf(b.config));
      void extra
        .sendNotification({ method: "notifications/message", params: { level, logger: tool.name, data: payload } })
        .catch(() => undefined);
    };
    const log: Logger = {
      debug: (m, d) => b.log.debug(m, d),
      info: (m, d) => b.log.info(m, d),
      warn: (m, d) => {
        b.log.warn(m, d);
        forward("warning", m, d);
      },
      error: (m, d) => b.log.error(m, d),
    };
    const ctx: ToolContext = { ...b, log, signal: extra.signal, progress };
    const { result } = await registry.call(tool, request.params.arguments ?? {}, ctx);
    return forOutputSchema(tool, result) as never;
  });

  return server;
}

/**
 * SDK clients validate any structuredContent against the tool's outputSchema, error results
 * included; an error's own data (e.g. validation `issues`) would then fail the call as a protocol
 * error. Such data stays out of the MCP result; the message is in the text.
 */
function forOutputSchema(tool: AnyTool, result: ToolResult): ToolResult {
  if (!result.isError || !tool.output || !result.structuredContent) return result;
  if (tool.output.safeParse(result.structuredContent).success) return result;
  const { structuredContent: _drop, ...rest } = result;
  return rest;
}
