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
import { newBoundSseId, unwrapSessionId, wrapSessionId } from "./session-binding";

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

const SESSION_HEADER = "mcp-session-id";

/** The JSON-RPC answer agents gives for an unknown session, so clients re-initialize. */
function sessionNotFound(): Response {
  return Response.json(
    { jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found" } },
    { status: 404 },
  );
}

/**
 * Check the session id against the caller's token and hand the session object the raw id:
 * Streamable HTTP carries it in the mcp-session-id header, legacy SSE in ?sessionId=.
 * Returns the request to forward, or undefined when the session is not this token's.
 */
async function bindRequest(req: Request, kind: "mcp" | "sse", token: string): Promise<Request | undefined> {
  if (kind === "mcp") {
    const presented = req.headers.get(SESSION_HEADER);
    if (!presented) return req;
    const raw = await unwrapSessionId(presented, token);
    if (!raw) return undefined;
    const headers = new Headers(req.headers);
    headers.set(SESSION_HEADER, raw);
    return new Request(req, { headers });
  }
  const url = new URL(req.url);
  const presented = url.searchParams.get("sessionId");
  if (presented) return (await unwrapSessionId(presented, token)) ? req : undefined;
  if (req.method !== "GET") return req;
  // A new SSE session: choose its id now, bound to the token (the endpoint event then carries it).
  url.searchParams.set("sessionId", await newBoundSseId(token));
  return new Request(url, req);
}

async function forward(c: Context<AppEnv>, prefix: string, kind: "mcp" | "sse", family?: string): Promise<Response> {
  const config = loadConfig(c.env);
  checkOrigin(c.req.header("Origin"), c.req.url, config.ALLOWED_ORIGINS);
  const grant = c.get("grant");
  const scope = scopeFor(grant, family);
  const req = await bindRequest(c.req.raw, kind, grant.token);
  if (!req) return sessionNotFound();
  const props: SessionProps = { baseUrl: new URL(c.req.url).origin };
  if (scope) props.scope = scope;
  const exec = c.executionCtx;
  const ctx = {
    waitUntil: exec.waitUntil.bind(exec),
    passThroughOnException: exec.passThroughOnException.bind(exec),
    props,
  } as unknown as ExecutionContext;
  const res = await handlerFor(prefix, kind).fetch(req, c.env, ctx);
  const raw = kind === "mcp" ? res.headers.get(SESSION_HEADER) : null;
  if (!raw) return res;
  const headers = new Headers(res.headers);
  headers.set(SESSION_HEADER, await wrapSessionId(raw, grant.token));
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
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
