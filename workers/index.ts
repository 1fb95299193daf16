/**
 * @module The Worker entry: Hono app, auth, error handler, MCP and REST mounts; exports the
 * Durable Objects and the queue handler.
 */
import { Hono } from "hono";
import { cors } from "hono/cors";
import { authenticate, isAllowedOrigin } from "../shared/auth";
import { ConfigError, loadConfig } from "../shared/config";
import { HttpError } from "../shared/errors";
import { createLogger } from "../shared/log";
import {
  comfyRoutes,
  consumeDeadLetters,
  consumeJobs,
  DEAD_LETTER_QUEUE,
  filesRoutes,
  JOBS_QUEUE,
} from "./comfy/index";
import { chatPage } from "./chat/page";
import { chatApiRoutes } from "./chat/route";
import { type AppEnv, mcpRoutes } from "./mcp/route";
import { registry } from "./registry";
import { toolRoutes } from "./rest";

export { ToolsMcp } from "./mcp/agent";
export { AnkiDedup } from "./anki/dedup-store";
export { ComfyJobStore } from "./comfy/index";

const app = new Hono<AppEnv>();

/**
 * Web clients at an allowed origin (ALLOWED_ORIGINS, or this server's own) may call every route.
 * A browser's preflight carries no token, so it is answered here, before the auth check; requests
 * without an Origin (every non-browser client) skip this entirely.
 */
const allowCors = cors({
  origin: (origin, c) => (isAllowedOrigin(origin, c.req.url, loadConfig(c.env).ALLOWED_ORIGINS) ? origin : null),
  allowMethods: ["GET", "POST", "DELETE", "OPTIONS"],
  allowHeaders: ["Authorization", "Content-Type", "Accept", "mcp-session-id", "mcp-protocol-version", "last-event-id"],
  exposeHeaders: ["mcp-session-id", "WWW-Authenticate"],
  maxAge: 86_400,
});
app.use("*", (c, next) => (c.req.header("Origin") ? allowCors(c, next) : next()));

app.get("/health", (c) => c.json({ status: "ok", families: registry.familyNames(), tools: registry.list().length }));

// The chat page is a static shell (no data, no secrets): the token is entered in the page.
app.get("/chat", chatPage);

/** Signed, expiring file links: the signature is the credential, so they sit before the auth check. */
app.route("/", filesRoutes());

/** Every route below needs a bearer token (checked in constant time, never logged). */
app.use("*", async (c, next) => {
  const config = loadConfig(c.env);
  c.set("grant", await authenticate(c.req.header("Authorization"), config.MCP_AUTH_TOKEN));
  await next();
});

app.route("/", mcpRoutes(registry.familyNames()));
app.route("/", toolRoutes(registry));
app.route("/", comfyRoutes());
app.route(
  "/",
  chatApiRoutes((req, env, ctx) => app.fetch(req, env, ctx)),
);

app.notFound((c) => c.json({ error: `No route ${c.req.method} ${new URL(c.req.url).pathname}` }, 404));

app.onError((err, c) => {
  if (err instanceof HttpError) {
    return c.json({ error: err.message }, err.status as 400, err.headers);
  }
  if (err instanceof ConfigError) {
    return c.json({ error: err.message }, 500);
  }
  createLogger().error("unhandled error", { path: new URL(c.req.url).pathname, error: String(err) });
  return c.json({ error: "Internal server error" }, 500);
});

export default {
  fetch: app.fetch,
  async queue(batch, env) {
    if (batch.queue === JOBS_QUEUE) return consumeJobs(batch, env);
    if (batch.queue === DEAD_LETTER_QUEUE) return consumeDeadLetters(batch, env);
    createLogger().error("message from an unknown queue", { queue: batch.queue });
    batch.retryAll();
  },
} satisfies ExportedHandler<Env>;
