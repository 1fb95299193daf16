/**
 * @module POST /api/chat {message, history} → {text, images[], toolCalls} (spec 004, 6-2…6-4).
 * The tools are reached only through an MCP client: this Worker's own /mcp, called in-process
 * (with the caller's own token), or any server at MCP_SERVER_URL (with MCP_SERVER_TOKEN).
 * With `Accept: text/event-stream` the answer streams progress events, then `done` or `error`.
 */
import type { Context } from "hono";
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { type Config, loadConfig, secretsOf } from "../../shared/config";
import { HttpError } from "../../shared/errors";
import { createLogger } from "../../shared/log";
import type { AppEnv } from "../mcp/route";
import { GeminiError, createGenerate } from "./gemini";
import { type ChatEvent, type ChatResult, runChat } from "./loop";
import { McpClient, McpConnectionError } from "./mcp-client";
import { readChatBody, validateChatRequest } from "./request";
import { ToolSelectionError } from "./tool-output";

/** This Worker's own fetch handler, so the chat can reach /mcp without a network hop. */
export type SelfFetch = (req: Request, env: Env, ctx: Context<AppEnv>["executionCtx"]) => Response | Promise<Response>;

/**
 * The MCP client for this request: the configured server, or this Worker's /mcp in-process.
 * (Not a self service binding: the first `wrangler deploy` of a Worker bound to itself fails.)
 */
export function mcpClientFor(c: Context<AppEnv>, config: Config, self: SelfFetch): McpClient {
  const options = { timeoutMs: config.MCP_CALL_TIMEOUT_MS };
  if (config.MCP_SERVER_URL) return new McpClient(config.MCP_SERVER_URL, config.MCP_SERVER_TOKEN, options);
  // The caller already proved this token; reusing it keeps their family scope on the tools.
  const token = /^Bearer\s+(\S+)/i.exec(c.req.header("Authorization") ?? "")?.[1];
  return new McpClient(new URL("/mcp", c.req.url).href, token, {
    ...options,
    fetch: async (input, init) => self(new Request(input, init), c.env, c.executionCtx),
  });
}

/** Map the loop's failures to HTTP errors with messages a person can act on. */
export function toHttpError(err: unknown): unknown {
  if (err instanceof McpConnectionError || err instanceof ToolSelectionError) return new HttpError(502, err.message);
  if (err instanceof GeminiError) {
    const headers: Record<string, string> =
      err.retryAfterSeconds !== undefined ? { "Retry-After": String(err.retryAfterSeconds) } : {};
    return new HttpError(err.status, err.message, headers);
  }
  return err;
}

/** Routes of the chat API (mounted behind the bearer-token middleware); `self` is the Worker's fetch. */
export function chatApiRoutes(self: SelfFetch): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post("/api/chat", async (c) => {
    const config = loadConfig(c.env);
    const log = createLogger(config.LOG_LEVEL, { route: "/api/chat" }, secretsOf(config));
    const { message, history } = validateChatRequest(
      await readChatBody(c.req.raw, config.CHAT_MAX_BODY_BYTES),
      config.CHAT_MAX_HISTORY,
    );
    let generate;
    try {
      generate = createGenerate(config);
    } catch (err) {
      throw toHttpError(err);
    }
    const mcp = mcpClientFor(c, config, self);
    const run = (onEvent?: (e: ChatEvent) => void): Promise<ChatResult> =>
      runChat(message, history, {
        generate,
        tools: mcp,
        model: config.GEMINI_MODEL,
        imageModel: config.GEMINI_IMAGE_MODEL,
        systemPrompt: config.CHAT_SYSTEM_PROMPT,
        offer: config.CHAT_TOOLS,
        maxRounds: config.CHAT_MAX_ROUNDS,
        imageMode: config.CHAT_IMAGE_MODE,
        ...(onEvent ? { onEvent } : {}),
      })
        .then((result) => {
          log.info("chat answered", { rounds: result.rounds, tools: result.toolCalls.map((t) => t.name) });
          return result;
        })
        .finally(() => c.executionCtx.waitUntil(mcp.disconnect()));

    if (!(c.req.header("Accept") ?? "").includes("text/event-stream")) {
      try {
        return c.json(await run());
      } catch (err) {
        throw toHttpError(err);
      }
    }
    return streamSSE(c, async (stream) => {
      const events: Promise<void>[] = [];
      try {
        const result = await run((e) => {
          events.push(stream.writeSSE({ event: e.type, data: JSON.stringify(e) }));
        });
        await Promise.all(events);
        await stream.writeSSE({ event: "done", data: JSON.stringify(result) });
      } catch (err) {
        await Promise.all(events);
        const mapped = toHttpError(err);
        const [status, error] =
          mapped instanceof HttpError ? [mapped.status, mapped.message] : [500, "Internal server error"];
        if (status === 500) log.error("chat failed", { error: String(err) });
        await stream.writeSSE({ event: "error", data: JSON.stringify({ status, error }) });
      }
    });
  });

  return app;
}
