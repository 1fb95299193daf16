/**
 * @module A fake Qdrant REST server faithful to ../shared/protocols/qdrant.md: the `{result,
 * status, time}` / `{status: {error}}` envelope, exact error texts (404 collection, wrong vector
 * name, wrong dimension, 409 exists), plain-text 401 for a missing or wrong api-key, and real
 * cosine / dot similarity over what was upserted. Knobs: `apiKey` (require it), `fault: "error"`.
 */
import type { FakeDefinition, FakeRequest, FakeResponse } from "./harness";

type Distance = "Cosine" | "Dot" | "Euclid" | "Manhattan";
interface VectorParams {
  size: number;
  distance: Distance;
}
interface Point {
  id: string | number;
  vectors: Record<string, number[]>;
  payload: Record<string, unknown>;
  version: number;
}
interface Collection {
  /** Vector name → params; the unnamed default vector is stored under "". */
  vectors: Map<string, VectorParams>;
  named: boolean;
  points: Map<string, Point>;
}

const collections = new Map<string, Collection>();
let opId = 0;

const ok = (result: unknown, status = 200): FakeResponse => ({
  status,
  json: { result, status: "ok", time: 0.000_42 },
});
const fail = (status: number, error: string): FakeResponse => ({ status, json: { status: { error }, time: 0.000_1 } });
const notFound = (name: string) => fail(404, `Not found: Collection \`${name}\` doesn't exist!`);

function parse(req: FakeRequest): { body: Record<string, unknown> } | { error: FakeResponse } {
  if (req.method === "GET" || req.method === "DELETE") return { body: {} };
  try {
    const v: unknown = JSON.parse(req.body.toString("utf8") || "{}");
    if (v && typeof v === "object" && !Array.isArray(v)) return { body: v as Record<string, unknown> };
    return { error: fail(400, "Format error in JSON body: expected an object") };
  } catch (err) {
    return { error: fail(400, `Format error in JSON body: ${String(err)}`) };
  }
}

function checkVector(col: Collection, name: string, v: unknown): string | undefined {
  const params = col.vectors.get(name);
  if (!params) return `Wrong input: Not existing vector name error: ${name}`;
  if (!Array.isArray(v) || v.some((x) => typeof x !== "number"))
    return "Format error in JSON body: vector must be numbers";
  if (v.length !== params.size)
    return `Wrong input: Vector dimension error: expected dim: ${params.size}, got ${v.length}`;
  return undefined;
}

function score(distance: Distance, a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  let l1 = 0;
  let l2 = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
    l1 += Math.abs(x - y);
    l2 += (x - y) ** 2;
  }
  if (distance === "Dot") return dot;
  if (distance === "Euclid") return Math.sqrt(l2);
  if (distance === "Manhattan") return l1;
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

type Condition = Record<string, unknown>;
function matches(p: Point, cond: Condition): boolean {
  if (Array.isArray(cond.has_id)) return cond.has_id.some((id) => String(id) === String(p.id));
  if (Array.isArray(cond.must) || Array.isArray(cond.must_not) || Array.isArray(cond.should)) return filterOk(p, cond);
  const key = typeof cond.key === "string" ? cond.key : "";
  const value = p.payload[key];
  const match = cond.match as Record<string, unknown> | undefined;
  if (match && "value" in match) return Array.isArray(value) ? value.includes(match.value) : value === match.value;
  if (match && Array.isArray(match.any)) return match.any.includes(value);
  if (match && typeof match.text === "string") return typeof value === "string" && value.includes(match.text);
  return false;
}
function filterOk(p: Point, filter: unknown): boolean {
  if (!filter || typeof filter !== "object") return true;
  const f = filter as Record<string, Condition[] | undefined>;
  if (f.must && !f.must.every((c) => matches(p, c))) return false;
  if (f.must_not?.some((c) => matches(p, c))) return false;
  if (f.should && f.should.length > 0 && !f.should.some((c) => matches(p, c))) return false;
  return true;
}

function withPayload(p: Point, want: unknown): Record<string, unknown> | undefined {
  if (!want) return undefined;
  if (Array.isArray(want)) return Object.fromEntries(want.map((k: string) => [k, p.payload[k]]));
  return p.payload;
}

function upsert(col: Collection, body: Record<string, unknown>): FakeResponse {
  const points = Array.isArray(body.points) ? (body.points as Record<string, unknown>[]) : [];
  const staged: Point[] = [];
  for (const raw of points) {
    const id = raw.id;
    const uuid = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
    if (!(typeof id === "number" && Number.isInteger(id) && id >= 0) && !(typeof id === "string" && uuid.test(id))) {
      return fail(400, `Format error in JSON body: value ${JSON.stringify(id)} is not a valid point ID`);
    }
    const vectors: Record<string, number[]> = {};
    const v = raw.vector;
    const entries: [string, unknown][] = Array.isArray(v) ? [["", v]] : Object.entries((v ?? {}) as object);
    for (const [name, vec] of entries) {
      const err = checkVector(col, name, vec);
      if (err) return fail(400, err);
      vectors[name] = vec as number[];
    }
    staged.push({ id, vectors, payload: (raw.payload ?? {}) as Record<string, unknown>, version: ++opId });
  }
  for (const p of staged) col.points.set(String(p.id), p);
  return ok({ operation_id: opId, status: "completed" });
}

function query(col: Collection, body: Record<string, unknown>): FakeResponse {
  const limit = body.limit === undefined ? 10 : Number(body.limit);
  if (!Number.isInteger(limit) || limit < 1)
    return fail(
      422,
      `Validation error in JSON body: [limit: value ${String(body.limit)} invalid, must be 1 or larger]`,
    );
  const using = typeof body.using === "string" ? body.using : "";
  const q = body.query;
  let ranked: { p: Point; score: number }[];
  if (q === undefined) {
    ranked = [...col.points.values()].map((p) => ({ p, score: 0 }));
  } else {
    const err = checkVector(col, using, q);
    if (err) return fail(400, err);
    const params = col.vectors.get(using) as VectorParams;
    const asc = params.distance === "Euclid" || params.distance === "Manhattan";
    ranked = [];
    for (const p of col.points.values()) {
      const v = p.vectors[using];
      if (v && filterOk(p, body.filter)) ranked.push({ p, score: score(params.distance, q as number[], v) });
    }
    ranked.sort((a, b) => (asc ? a.score - b.score : b.score - a.score));
    const threshold = body.score_threshold;
    if (typeof threshold === "number")
      ranked = ranked.filter((r) => (asc ? r.score <= threshold : r.score >= threshold));
  }
  const offset = Number(body.offset ?? 0);
  const points = ranked.slice(offset, offset + limit).map(({ p, score: s }) => {
    const out: Record<string, unknown> = { id: p.id, version: p.version, score: s };
    const payload = withPayload(p, body.with_payload);
    if (payload) out.payload = payload;
    return out;
  });
  return ok({ points });
}

function scroll(col: Collection, body: Record<string, unknown>): FakeResponse {
  const limit = Number(body.limit ?? 10);
  const all = [...col.points.values()]
    .filter((p) => filterOk(p, body.filter))
    .sort((a, b) => String(a.id).localeCompare(String(b.id)));
  const start = body.offset === undefined || body.offset === null ? 0 : all.findIndex((p) => p.id === body.offset);
  const page = all.slice(Math.max(0, start), Math.max(0, start) + limit);
  const next = all[Math.max(0, start) + limit];
  return ok({
    points: page.map((p) => {
      const out: Record<string, unknown> = { id: p.id };
      const payload = withPayload(p, body.with_payload);
      if (payload) out.payload = payload;
      return out;
    }),
    next_page_offset: next ? next.id : null,
  });
}

function createCollection(name: string, body: Record<string, unknown>): FakeResponse {
  if (collections.has(name)) return fail(409, `Wrong input: Collection \`${name}\` already exists!`);
  const v = (body.vectors ?? {}) as Record<string, unknown>;
  const vectors = new Map<string, VectorParams>();
  const named = !("size" in v);
  const entries = named ? Object.entries(v) : [["", v] as const];
  for (const [vn, params] of entries) {
    const p = params as Record<string, unknown>;
    if (typeof p.size !== "number" || p.size < 1)
      return fail(422, "Validation error in JSON body: [vectors.size: value 0 invalid, must be 1 or larger]");
    vectors.set(vn, { size: p.size, distance: (p.distance as Distance | undefined) ?? "Cosine" });
  }
  collections.set(name, { vectors, named, points: new Map() });
  return ok(true);
}

function info(col: Collection): FakeResponse {
  const vectors = col.named
    ? Object.fromEntries([...col.vectors].map(([n, p]) => [n, p]))
    : (col.vectors.get("") as VectorParams);
  return ok({ status: "green", points_count: col.points.size, config: { params: { vectors } } });
}

function authError(req: FakeRequest): FakeResponse | undefined {
  const key = req.knobs.apiKey;
  if (typeof key !== "string" || ["/", "/healthz"].includes(req.path) || /^\/(readyz|livez)/.test(req.path)) return;
  const given = req.headers["api-key"] ?? req.headers.authorization?.replace(/^Bearer\s+/i, "");
  const text = { "Content-Type": "text/plain; charset=utf-8" };
  if (!given) return { status: 401, headers: text, body: "Must provide an API key or an Authorization bearer token" };
  if (given !== key) return { status: 401, headers: text, body: "Invalid API key or JWT" };
  return undefined;
}

/** Fake Qdrant: collections, upsert, query, scroll, delete, info; state lives until reset. */
export const qdrantFake: FakeDefinition = {
  name: "qdrant",
  reset() {
    collections.clear();
    opId = 0;
  },
  handle(req) {
    const denied = authError(req);
    if (denied) return denied;
    if (req.knobs.fault === "error") return fail(500, "Service internal error: fake failure");
    if (req.knobs.fault === "garbage") return { body: "<html>proxy</html>", headers: { "Content-Type": "text/html" } };
    if (req.method === "GET" && req.path === "/")
      return { json: { title: "qdrant - vector search engine", version: "1.19.0" } };
    const m = /^\/collections\/([^/]+)(\/.*)?$/.exec(req.path);
    if (!m) return fail(404, `Not found: ${req.path}`);
    const name = decodeURIComponent(m[1] ?? "");
    const rest = m[2] ?? "";
    const parsed = parse(req);
    if ("error" in parsed) return parsed.error;
    const body = parsed.body;
    if (rest === "" && req.method === "PUT") return createCollection(name, body);
    if (rest === "/exists") return ok({ exists: collections.has(name) });
    const col = collections.get(name);
    if (rest === "" && req.method === "DELETE") return ok(collections.delete(name));
    if (!col) return notFound(name);
    if (rest === "" && req.method === "GET") return info(col);
    if (rest === "/index" && req.method === "PUT") return ok({ operation_id: ++opId, status: "completed" });
    if (rest === "/points" && req.method === "PUT") return upsert(col, body);
    if (rest === "/points/query" && req.method === "POST") return query(col, body);
    if (rest === "/points/scroll" && req.method === "POST") return scroll(col, body);
    if (rest === "/points/count" && req.method === "POST")
      return ok({ count: [...col.points.values()].filter((p) => filterOk(p, body.filter)).length });
    if (rest === "/points/delete" && req.method === "POST") {
      const ids = Array.isArray(body.points) ? body.points.map(String) : undefined;
      for (const [k, p] of col.points) {
        if (ids ? ids.includes(k) : body.filter !== undefined && filterOk(p, body.filter)) col.points.delete(k);
      }
      return ok({ operation_id: ++opId, status: "completed" });
    }
    return fail(404, `Not found: ${req.method} ${req.path}`);
  },
};
