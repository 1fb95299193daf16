import { beforeEach, describe, expect, it } from "vitest";
import { applyBudget, normalizeResult } from "../../workers/search/client";
import { api, connect, fakeControl, fakeStats, fakeUrl } from "../helpers/mcp";
import { call, textOf } from "../rag/seed";

const FIRST = {
  title: "Поиск и автоматизация 0",
  url: "https://community.n8n.io/t/chatgpt-connector/1000",
  snippet: "Short snippet about search.",
  content: null,
  score: 0.99,
  source: "fake-index",
};

async function lastRequest(): Promise<{ headers: Record<string, string>; body: Record<string, unknown> } | null> {
  return (await fetch(`${fakeUrl("search")}/last`)).json();
}

beforeEach(async () => {
  await fakeControl("search", null);
});

describe("search (spec 000)", () => {
  it.each([
    ["/search/mcp", "streamable-http"],
    ["/search/sse", "sse"],
  ] as const)("returns SearchResponse as data and JSON text over %s", async (path, transport) => {
    const client = await connect(path, transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).toSorted()).toEqual(["search", "web_search"]);
    const res = await client.callTool({ name: "search", arguments: { query: "  n8n chatgpt  ", limit: 2 } });
    expect(res.isError).toBeFalsy();
    const data = res.structuredContent as { results: unknown[]; nextCursor: string | null };
    expect(Object.keys(data)).toEqual(["results", "nextCursor"]);
    expect(data.results).toHaveLength(2);
    expect(data.results[0]).toEqual(FIRST);
    expect(typeof data.nextCursor).toBe("string");
    expect(res.content).toEqual([{ type: "text", text: JSON.stringify(data, null, 2) }]);
    expect((await lastRequest())?.body).toEqual({ query: "n8n chatgpt", limit: 2 });
    await client.close();
  });

  it("passes the cursor through as is and pages to the end (nextCursor null)", async () => {
    const first = await call("search", { query: "q", limit: 5 });
    const cursor = (first.structuredContent as { nextCursor: string }).nextCursor;
    const second = await call("search", { query: "q", limit: 5, cursor });
    expect((await lastRequest())?.body).toEqual({ query: "q", limit: 5, cursor });
    const third = await call("search", {
      query: "q",
      limit: 5,
      cursor: (second.structuredContent as { nextCursor: string }).nextCursor,
    });
    const last = third.structuredContent as { results: { url: string }[]; nextCursor: string | null };
    expect(last.results.map((r) => r.url.slice(-4))).toEqual(["1010", "1011"]);
    expect(last.nextCursor).toBeNull();
  });

  it("accepts items and next_cursor from the upstream", async () => {
    await fakeControl("search", { shape: "items" });
    const res = await call("search", { query: "q", limit: 1 });
    const data = res.structuredContent as { results: unknown[]; nextCursor: string | null };
    expect(data.results).toEqual([FIRST]);
    expect(data.nextCursor).toBe(Buffer.from("page:1").toString("base64url"));
  });

  it("sends Authorization only when SEARCH_API_KEY is set", async () => {
    await call("search", { query: "q" });
    expect((await lastRequest())?.headers.authorization).toBeUndefined();
    await call("search", { query: "q" }, { SEARCH_API_KEY: "search-key-1234" });
    expect((await lastRequest())?.headers.authorization).toBe("Bearer search-key-1234");
  });

  it("reports a rejected or missing key without showing it", async () => {
    await fakeControl("search", { apiKey: "search-right-key" });
    const missing = await call("search", { query: "q" });
    expect(textOf(missing)).toBe(
      `The search API at ${fakeUrl("search")}/search needs a key (HTTP 401): set SEARCH_API_KEY.`,
    );
    const wrong = await call("search", { query: "q" }, { SEARCH_API_KEY: "search-wrong-key" });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toBe(
      `The search API at ${fakeUrl("search")}/search rejected the key (HTTP 401): check SEARCH_API_KEY.`,
    );
    expect(JSON.stringify(wrong)).not.toContain("search-wrong-key");
  });

  it("says which variable to set when it is not configured", async () => {
    const res = await call("search", { query: "q" }, { SEARCH_API_URL: "" });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toBe(
      "Search is not configured: set SEARCH_API_URL to your search service or n8n webhook URL (and SEARCH_API_KEY if it needs a key).",
    );
  });

  it("requires a non-blank query (trimmed)", async () => {
    const res = await call("search", { query: "   " });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toBe("Invalid arguments: query: must not be empty");
  });

  it("honours one 429 Retry-After, then succeeds", async () => {
    await fakeControl("search", { rateLimit: 1, retryAfter: 1 });
    const started = Date.now();
    const res = await call("search", { query: "q" });
    expect(res.isError).toBeFalsy();
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect((await fakeStats("search")).requests).toBe(2);
  });

  it("reports a second 429 instead of waiting again", async () => {
    await fakeControl("search", { rateLimit: 5, retryAfter: 1 });
    const res = await call("search", { query: "q" });
    expect(textOf(res)).toBe(
      `The search API at ${fakeUrl("search")}/search is rate-limiting requests (HTTP 429); try again in 1 s.`,
    );
    expect((await fakeStats("search")).requests).toBe(2);
  });

  it("does not wait for a long Retry-After", async () => {
    await fakeControl("search", { rateLimit: 5, retryAfter: 120 });
    const started = Date.now();
    const res = await call("search", { query: "q" });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(textOf(res)).toContain("try again in 120 s.");
    expect((await fakeStats("search")).requests).toBe(1);
  });

  it("truncates long content to the size budget and says so", async () => {
    await fakeControl("search", { huge: true });
    const res = await call("search", { query: "q", limit: 4 });
    const text = textOf(res);
    expect(text.length).toBeLessThan(21_000);
    const r = (res.structuredContent as { results: { content: string; truncated?: boolean }[] }).results;
    expect(r).toHaveLength(4);
    for (const x of r) {
      expect(x.truncated).toBe(true);
      expect(x.content).toMatch(/… \[truncated: \d+ of 50002 characters shown\]$/);
    }
  });

  it("keeps extra fields within the budget too: long texts cut, large objects left out, url and score intact", async () => {
    await fakeControl("search", { hugeExtra: true });
    const res = await call("search", { query: "q", limit: 3 });
    expect(res.isError).toBeFalsy();
    expect(textOf(res).length).toBeLessThan(21_000);
    const r = (res.structuredContent as { results: Record<string, unknown>[] }).results;
    expect(r).toHaveLength(3);
    for (const [i, x] of r.entries()) {
      expect(x).toMatchObject({
        url: `https://community.n8n.io/t/chatgpt-connector/${1000 + i}`,
        score: FIRST.score - i * 0.05,
        source: "fake-index",
        truncated: true,
        raw: "[truncated: object of 30012 characters of JSON left out]",
      });
      expect(x.title).toMatch(/^(Поиск и автоматизация|n8n ChatGPT automation) \d$/);
      expect(x.html).toMatch(/^(<p>)+<?p?… \[truncated: \d+ of 30000 characters shown\]$/);
    }
  });

  it("reports upstream failures and non-JSON answers", async () => {
    await fakeControl("search", { fault: "error" });
    expect(textOf(await call("search", { query: "q" }))).toBe("Search API answered HTTP 500 Internal Server Error");
    await fakeControl("search", { fault: "garbage" });
    expect(textOf(await call("search", { query: "q" }))).toBe(
      `Search API answered with something that is not JSON (HTTP 200); check that ${fakeUrl("search")}/search is the right URL`,
    );
  });
});

describe("web_search (spec 003)", () => {
  it("defaults to 5 results and renders a numbered list", async () => {
    const client = await connect("/search/mcp");
    const res = await client.callTool({ name: "web_search", arguments: { query: "n8n" } });
    expect((await lastRequest())?.body).toEqual({ query: "n8n", limit: 5 });
    const text = (res.content as { text: string }[])[0]?.text ?? "";
    expect(text.split("\n\n")).toHaveLength(5);
    expect(
      text.startsWith(
        "1. Поиск и автоматизация 0\n   https://community.n8n.io/t/chatgpt-connector/1000\n   Short snippet about search.\n\n2. n8n ChatGPT automation 1\n",
      ),
    ).toBe(true);
    expect((res.structuredContent as { results: unknown[] }).results).toHaveLength(5);
    await client.close();
  });

  it("says when nothing was found (and search returns an empty page)", async () => {
    await fakeControl("search", { empty: true });
    const res = await call("web_search", { query: "  нет такого  " });
    expect(res.isError).toBeFalsy();
    expect(textOf(res)).toBe("По запросу «нет такого» ничего не найдено.");
    const page = await call("search", { query: "нет такого" });
    expect(page.structuredContent).toEqual({ results: [], nextCursor: null });
  });

  it("is reachable at POST /tools/web_search with {query, max_results}", async () => {
    const res = await api("/tools/web_search", { method: "POST", json: { query: "n8n", max_results: 2 } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { structuredContent: { results: unknown[] } };
    expect(body.structuredContent.results).toHaveLength(2);
  });
});

describe("normalisation", () => {
  it("keeps extra fields, nulls missing ones, drops non-http URLs, coerces numeric scores", () => {
    expect(normalizeResult({ title: "t", url: "javascript:alert(1)", score: "0.5", lang: "ru" })).toEqual({
      title: "t",
      url: null,
      snippet: null,
      content: null,
      score: 0.5,
      lang: "ru",
    });
  });

  it("leaves small answers untouched", () => {
    const res = { results: [normalizeResult({ title: "a", content: "short" })], nextCursor: null };
    expect(applyBudget(res, 10_000)).toBe(res);
  });
});

describe("secrets in the search URL", () => {
  it("never shows credentials or the query string of SEARCH_API_URL", async () => {
    const u = new URL(`${fakeUrl("search")}/search?token=webhook-secret-1`);
    u.username = "user";
    u.password = "pass-secret-2";
    await fakeControl("search", { fault: "garbage" });
    const res = await call("search", { query: "q" }, { SEARCH_API_URL: u.href });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toContain(`check that ${fakeUrl("search")}/search is the right URL`);
    expect(JSON.stringify(res)).not.toMatch(/webhook-secret-1|pass-secret-2/);
  });
});
