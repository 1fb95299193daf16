/**
 * @module A fake external search API (an n8n webhook or similar): `POST /search {query, limit,
 * cursor}` → `{results, nextCursor}` over a small fixed corpus, with opaque cursors for pages.
 * Knobs: `shape: "items"` answers `{items, next_cursor}` instead; `rateLimit: n` answers the next n
 * requests with 429 and `Retry-After: {retryAfter ?? 1}`; `apiKey` requires `Authorization:
 * Bearer …` (401 plain text); `huge: true` gives every result a 50 000-character `content`;
 * `hugeExtra: true` adds an extra 30 000-character `html` and a large `raw` object instead;
 * `empty: true` finds nothing.
 * `GET /last` returns the headers and body of the last search request (for header assertions).
 */
import type { FakeDefinition, FakeRequest, FakeResponse } from "./harness";

const CORPUS = Array.from({ length: 12 }, (_, i) => ({
  title: i % 2 ? `n8n ChatGPT automation ${i}` : `Поиск и автоматизация ${i}`,
  url: `https://community.n8n.io/t/chatgpt-connector/${1000 + i}`,
  snippet: i % 2 ? "Готовый workflow для интеграции ChatGPT и n8n." : "Short snippet about search.",
  score: Math.round((0.99 - i * 0.05) * 100) / 100,
  source: "fake-index",
}));

let rateLimited = 0;
let last: { headers: FakeRequest["headers"]; body: unknown } | undefined;

/** Fake search API. */
export const searchApiFake: FakeDefinition = {
  name: "search-api",
  reset() {
    rateLimited = 0;
    last = undefined;
  },
  handle(req): FakeResponse {
    if (req.method === "GET" && req.path === "/last") return { json: last ?? null };
    const key = req.knobs.apiKey;
    if (typeof key === "string" && req.headers.authorization !== `Bearer ${key}`) {
      return { status: 401, headers: { "Content-Type": "text/plain" }, body: "Unauthorized" };
    }
    const limit429 = Number(req.knobs.rateLimit ?? 0);
    if (rateLimited < limit429) {
      rateLimited++;
      return {
        status: 429,
        headers: { "Retry-After": String(req.knobs.retryAfter ?? 1), "Content-Type": "application/json" },
        body: JSON.stringify({ error: "Too Many Requests" }),
      };
    }
    if (req.knobs.fault === "error") return { status: 500, json: { error: "search backend failed" } };
    if (req.knobs.fault === "garbage") return { body: "<html>oops</html>", headers: { "Content-Type": "text/html" } };
    if (req.method !== "POST" || req.path !== "/search") return { status: 404, json: { error: "Not found" } };
    const body = JSON.parse(req.body.toString("utf8") || "{}") as { query?: string; limit?: number; cursor?: string };
    last = { headers: req.headers, body };
    const start = body.cursor ? Number(Buffer.from(body.cursor, "base64url").toString("utf8").replace("page:", "")) : 0;
    const limit = body.limit ?? 5;
    const page = (req.knobs.empty ? [] : CORPUS.slice(start, start + limit)).map((r) => {
      if (req.knobs.huge) return { ...r, content: `${body.query ?? ""} `.repeat(1).concat("x".repeat(50_000)) };
      if (req.knobs.hugeExtra) return { ...r, html: "<p>".repeat(10_000), raw: { tokens: Array(5000).fill("tok") } };
      return r;
    });
    const next =
      !req.knobs.empty && start + limit < CORPUS.length
        ? Buffer.from(`page:${start + limit}`).toString("base64url")
        : undefined;
    if (req.knobs.shape === "items") return { json: { items: page, ...(next ? { next_cursor: next } : {}) } };
    return { json: { results: page, ...(next ? { nextCursor: next } : {}) } };
  },
};
