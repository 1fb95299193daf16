/** Test helpers for the rag family: write straight into the fake Qdrant, and vectors with known cosine to a query. */
import { registry } from "../../workers/registry";
import { toolContext } from "../helpers/context";
import { fakeUrl } from "../helpers/mcp";
import { fakeEmbed } from "../fakes/embeddings";

/** Call the fake Qdrant's REST API directly (not through the code under test). */
export async function qdrant(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${fakeUrl("qdrant")}${path}`, {
    method,
    headers: { "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await res.json()) as Record<string, unknown>;
}

/** Create a collection with an unnamed (name "") or named vector. */
export async function createCollection(name: string, size = 256, vector = ""): Promise<void> {
  const params = { size, distance: "Cosine" };
  await qdrant("PUT", `/collections/${name}`, { vectors: vector ? { [vector]: params } : params });
}

/** Upsert points `{id, vector, payload}` (unnamed vector). */
export async function upsert(name: string, points: { id: number | string; vector: number[]; payload: object }[]) {
  await qdrant("PUT", `/collections/${name}/points?wait=true`, { points });
}

/** Number of points in a collection. */
export async function count(name: string): Promise<number> {
  const r = await qdrant("POST", `/collections/${name}/points/count`, {});
  return (r.result as { count: number }).count;
}

/** A unit vector whose cosine with the fake embedding of `query` is exactly `cos` (256 dims). */
export function vectorAt(query: string, cos: number, dim = 256): number[] {
  const e = fakeEmbed(query, dim);
  // A unit vector orthogonal to e: a basis vector minus its projection on e.
  const k = e.findIndex((x) => Math.abs(x) < 0.5);
  const b = e.map((_, i) => (i === k ? 1 : 0));
  const proj = e[k] ?? 0;
  const u0 = b.map((x, i) => x - proj * (e[i] ?? 0));
  const n = Math.hypot(...u0);
  const u = u0.map((x) => x / n);
  const s = Math.sqrt(1 - cos * cos);
  return e.map((x, i) => cos * x + s * (u[i] ?? 0));
}

/** Call a tool through the registry with per-test settings. */
export async function call(name: string, args: Record<string, unknown>, vars: Record<string, string> = {}) {
  const tool = registry.get(name);
  if (!tool) throw new Error(`no tool ${name}`);
  return (await registry.call(tool, args, toolContext(vars))).result;
}

/** The text of a tool result. */
export function textOf(result: { content: unknown }): string {
  const blocks = result.content as { type: string; text?: string }[];
  return blocks.map((b) => b.text ?? "").join("");
}
