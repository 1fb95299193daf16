/**
 * @module REST views of the registry: GET /tools?format=…, POST /tools/{name} (spec 003) and
 * POST /invoke {name, arguments} (spec 001, arguments as an object or an OpenAI-style JSON string).
 * Same validation, same handler, same result as MCP tools/call.
 */
import type { Context } from "hono";
import { Hono } from "hono";
import { scopeFor } from "../shared/auth";
import { loadConfig, secretsOf } from "../shared/config";
import { HttpError } from "../shared/errors";
import { createLogger } from "../shared/log";
import type { ToolContext } from "../shared/tools/context";
import { exportTools, reactMenu } from "../shared/tools/exporters";
import type { CallOutcome, ToolRegistry } from "../shared/tools/registry";
import type { AppEnv } from "./mcp/route";

const MAX_BODY = 8 * 1024 * 1024;
const STATUS: Record<NonNullable<CallOutcome["failure"]>, number> = {
  validation: 400,
  tool: 422,
  upstream: 502,
  internal: 500,
};

async function readJson(c: Context<AppEnv>): Promise<unknown> {
  const len = Number(c.req.header("Content-Length") ?? "0");
  if (len > MAX_BODY) throw new HttpError(413, `Request body is larger than ${MAX_BODY / 1024 / 1024} MiB.`);
  const text = await c.req.text();
  if (text.length > MAX_BODY) throw new HttpError(413, `Request body is larger than ${MAX_BODY / 1024 / 1024} MiB.`);
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, "Request body is not valid JSON.");
  }
}

/** The tool context for a REST request. */
export function restContext(c: Context<AppEnv>): ToolContext {
  const config = loadConfig(c.env);
  const exec = c.executionCtx;
  return {
    config,
    bindings: c.env,
    fetch: (input, init) => fetch(input, init),
    log: createLogger(config.LOG_LEVEL, { route: new URL(c.req.url).pathname }, secretsOf(config)),
    signal: c.req.raw.signal,
    progress: async () => undefined,
    baseUrl: new URL(c.req.url).origin,
    waitUntil: (p) => exec.waitUntil(p),
  };
}

/** Routes for the registry's REST views. */
export function toolRoutes(registry: ToolRegistry): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  const invoke = async (c: Context<AppEnv>, name: string, args: unknown) => {
    const scope = scopeFor(c.get("grant"));
    const tool = registry.get(name, scope);
    if (!tool) throw new HttpError(404, `Unknown tool: ${name}. GET /tools lists the available tools.`);
    const fam = registry.familyOf(tool.name);
    if (fam) scopeFor(c.get("grant"), fam);
    const outcome = await registry.call(tool, args, restContext(c));
    const body = outcome.failure
      ? { ...outcome.result, error: outcome.result.content.find((b) => b.type === "text")?.text ?? "Tool failed" }
      : outcome.result;
    return c.json(body, (outcome.failure ? STATUS[outcome.failure] : 200) as 200);
  };

  app.get("/tools", (c) => {
    const format = c.req.query("format") ?? "mcp";
    const tools = registry.list(scopeFor(c.get("grant")));
    if (format === "react") return c.text(reactMenu(tools));
    if (format !== "mcp" && format !== "openai" && format !== "gemini") {
      throw new HttpError(400, `Unknown format "${format}": use mcp, openai, gemini or react.`);
    }
    return c.json(exportTools(tools, format));
  });

  app.post("/tools/:name", async (c) => invoke(c, c.req.param("name"), await readJson(c)));

  app.post("/invoke", async (c) => {
    const body = await readJson(c);
    if (!body || typeof body !== "object" || Array.isArray(body)) {
      throw new HttpError(400, 'Body must be {"name": "<tool>", "arguments": {...}}.');
    }
    const { name, arguments: rawArgs } = body as { name?: unknown; arguments?: unknown };
    if (typeof name !== "string" || !name) throw new HttpError(400, 'Field "name" is required: the tool to call.');
    let args = rawArgs ?? {};
    if (typeof args === "string") {
      try {
        args = args.trim() ? JSON.parse(args) : {};
      } catch {
        throw new HttpError(
          400,
          'Field "arguments" is a string but not valid JSON; send an object or a JSON-encoded object.',
        );
      }
    }
    return invoke(c, name, args);
  });

  return app;
}
