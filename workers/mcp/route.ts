/**
 * @module Mounts the MCP session object: Streamable HTTP at /mcp and legacy SSE at /sse (+ /sse/message),
 * for every family, and the same under /{family}/ limited to that family. Auth and Origin are checked
 * first; the session's scope (route family ∩ token grant) travels as Durable Object props.
 */
import type { Context } from "hono";
import { Hono } from "hono";
import { checkOrigin, scopeFor } from "../../shared/auth";
import type { TokenGrant } from "../../shared/config";
import { loadConfig } from "../../shared/config";
import type { SessionProps } from "./agent";
import { ToolsMcp } from "./agent";

type Handler = ReturnType<typeof ToolsMcp.serve>;
export type AppEnv = { Bindings: Env; Variables: { grant: TokenGrant } };

const handlers = new Map<string, Handler>();

function handlerFor(prefix: string, kind: "mcp" | "sse"): Handler {
  const key = `${prefix}/${kind}`;
  let h = handlers.get(key);
  if (!h) {
    h = kind === "mcp" ? ToolsMcp.serve(key) : ToolsMcp.serveSSE(key);
    handlers.set(key, h);
  }
  return h;
}

function forward(c: Context<AppEnv>, prefix: string, kind: "mcp" | "sse", family?: string): Promise<Response> {
  const config = loadConfig(c.env);
  checkOrigin(c.req.header("Origin"), c.req.url, config.ALLOWED_ORIGINS);
  const scope = scopeFor(c.get("grant"), family);
  const props: SessionProps = { baseUrl: new URL(c.req.url).origin };
  if (scope) props.scope = scope;
  const exec = c.executionCtx;
  const ctx = {
    waitUntil: exec.waitUntil.bind(exec),
    passThroughOnException: exec.passThroughOnException.bind(exec),
    props,
  } as unknown as ExecutionContext;
  return handlerFor(prefix, kind).fetch(c.req.raw, c.env, ctx);
}

/** Routes for one prefix ("" for all families, "/anki" for one). */
export function mcpRoutes(familyNames: readonly string[]): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.all("/mcp", (c) => forward(c, "", "mcp"));
  app.all("/sse", (c) => forward(c, "", "sse"));
  app.all("/sse/message", (c) => forward(c, "", "sse"));
  for (const fam of familyNames) {
    app.all(`/${fam}/mcp`, (c) => forward(c, `/${fam}`, "mcp", fam));
    app.all(`/${fam}/sse`, (c) => forward(c, `/${fam}`, "sse", fam));
    app.all(`/${fam}/sse/message`, (c) => forward(c, `/${fam}`, "sse", fam));
  }
  return app;
}
