/** @module GET /comfy/jobs/{id}: a job's status and result as JSON (bearer auth, comfy scope). */
import { Hono } from "hono";
import { scopeFor } from "../../shared/auth";
import type { TokenGrant } from "../../shared/config";
import { loadConfig } from "../../shared/config";
import { HttpError } from "../../shared/errors";
import { isTerminal } from "./job";
import { jobView } from "./results";
import { findJob, queuePlace } from "./status";

type RouteEnv = { Bindings: Env; Variables: { grant: TokenGrant } };

/** Routes of the comfy family beyond MCP and the registry. */
export function comfyRoutes(): Hono<RouteEnv> {
  const app = new Hono<RouteEnv>();
  app.get("/comfy/jobs/:id", async (c) => {
    scopeFor(c.get("grant"), "comfy");
    const config = loadConfig(c.env);
    const id = c.req.param("id");
    const rec = await findJob(c.env, id);
    if (!rec) throw new HttpError(404, `No ComfyUI job ${id}.`);
    const view = await jobView(config, rec, new URL(c.req.url).origin);
    if (isTerminal(rec.status)) return c.json(view);
    return c.json({ ...view, queue: (await queuePlace(config, id)) ?? { state: "unknown" } });
  });
  return app;
}
