/** YGOPRODeck misbehaving: down, garbage, errors, refusing us (rate limit), and our own request rate. */
import { describe, expect, it } from "vitest";
import { BlockState, SlidingWindowLimiter } from "../../workers/cards/rate-limit";
import { env } from "cloudflare:workers";
import { cardApi, callCards, fakeCardStats, firstText } from "../helpers/cards";
import { toolContext } from "../helpers/context";
import { registry } from "../../workers/registry";

describe("upstream failures become clear tool errors", () => {
  it("YGOPRODeck down → not reachable, naming the URL", async () => {
    const tool = registry.get("get_card_illustration");
    if (!tool) throw new Error("tool missing");
    const ctx = toolContext({ CARD_API_URL: "http://127.0.0.1:9/down/api/v7" });
    const { result, failure } = await registry.call(tool, { card_name: "Dark Magician" }, ctx);
    expect(failure).toBe("upstream");
    expect(firstText(result)).toMatch(/YGOPRODeck is not reachable at http:\/\/127\.0\.0\.1:9\/down\/api\/v7/);
  });

  it("garbage instead of JSON → says so and points at CARD_API_URL", async () => {
    const r = await callCards("get_card_illustration", { card_name: "Dark Magician" }, "/t~garbage");
    expect(r.isError).toBe(true);
    expect(firstText(r)).toMatch(/not JSON.*CARD_API_URL/);
  });

  it("HTTP 500 → retried, then reported with the status", async () => {
    const r = await callCards("get_theme_illustrations", { theme: "Blue-Eyes" }, "/t~error");
    expect(r.isError).toBe(true);
    expect(firstText(r)).toMatch(/YGOPRODeck answered HTTP 500/);
    expect((await fakeCardStats("/t~error")).apiRequests).toBe(3);
  });

  it("an artwork that is not an image → error naming it, nothing cached", async () => {
    const r = await callCards("get_card_illustration", { card_name: "Mirror Force" }, "/t~badimage");
    expect(r.isError).toBe(true);
    expect(firstText(r)).toMatch(
      /artwork at http:\/\/127\.0\.0\.1:\d+\/t~badimage\/images\/cards_cropped\/44095762\.jpg is not an image/,
    );
  });

  it("an unknown parameter's 400 is not mistaken for 'no match'", async () => {
    const { CardApi } = await import("../../workers/cards/client");
    const api = new CardApi(
      toolContext({ CARD_API_URL: `${JSON.parse(toolContext().bindings.FAKE_URLS).ygoprodeck}/p/api/v7` }),
    );
    await expect(api.cards({ name: "Dark Magician", bogus: "1" } as never)).rejects.toThrow(
      /rejected the query \(Invalid parameter "bogus"/,
    );
    expect(await api.cards({ name: "No Such Card" })).toEqual([]);
  });
});

describe("rate limit", () => {
  it("429 from YGOPRODeck → stop calling it for the block period, with a clear message", async () => {
    const ns = "/t~blocked";
    const first = await callCards("get_card_illustration", { card_name: "Dark Magician" }, ns);
    expect(first.isError).toBe(true);
    expect(firstText(first)).toMatch(/refused our requests \(rate limit\).*until \d\d:\d\d UTC/);
    expect((await fakeCardStats(ns)).rejected).toBe(1);
    const second = await callCards("get_theme_illustrations", { theme: "Dark Magician" }, ns);
    expect(firstText(second)).toMatch(/refused our requests/);
    expect((await fakeCardStats(ns)).rejected).toBe(1);
  });

  it("another isolate's block, left in R2, is honoured before any request", async () => {
    const ns = "/t-shared-block";
    const until = new Date(Date.now() + 60_000);
    await env.FILES.put(`cards/blocked/${encodeURIComponent(cardApi(ns))}`, until.toISOString());
    const r = await callCards("get_card_illustration", { card_name: "Kuriboh" }, ns);
    expect(firstText(r)).toContain(`until ${until.toISOString().slice(11, 16)} UTC`);
    expect((await fakeCardStats(ns)).apiRequests).toBe(0);
  });

  it("many concurrent calls in one isolate never exceed 20 requests per second", async () => {
    const ns = "/t~rate";
    const names = ["Dark Magician", "Kuriboh", "Pot of Greed", "Mirror Force", "Decode Talker", "Tornado Dragon"];
    const calls = Array.from({ length: 30 }, (_, i) =>
      callCards("get_card_illustration", { card_name: names[i % names.length] }, ns, { CARD_DATA_TTL_HOURS: "0" }),
    );
    const results = await Promise.all(calls);
    for (const r of results) expect(firstText(r)).not.toMatch(/refused/);
    const stats = await fakeCardStats(ns);
    expect(stats.apiRequests).toBeGreaterThanOrEqual(30);
    expect(stats.rejected).toBe(0);
    expect(stats.maxPerSecond).toBeLessThanOrEqual(20);
  });

  it("the limiter starts request n+limit only a window after request n got its answer", async () => {
    const limiter = new SlidingWindowLimiter({ limit: 3, windowMs: 60 });
    const spans: { start: number; end: number }[] = [];
    const t0 = Date.now();
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        limiter.run(async () => {
          const start = Date.now() - t0;
          await new Promise((r) => setTimeout(r, 15));
          spans[i] = { start, end: Date.now() - t0 };
        }),
      ),
    );
    expect(spans.slice(0, 3).every((s) => s.start < 15)).toBe(true);
    for (let i = 3; i < 8; i++) {
      expect(spans[i]?.start ?? 0).toBeGreaterThanOrEqual((spans[i - 3]?.end ?? Infinity) + 60 - 2);
    }
  });

  it("a waiting caller can be cancelled", async () => {
    const limiter = new SlidingWindowLimiter({ limit: 1, windowMs: 10_000 });
    await limiter.run(async () => undefined);
    const ac = new AbortController();
    const waiting = limiter.run(async () => "ran", ac.signal);
    ac.abort(new Error("cancelled"));
    await expect(waiting).rejects.toThrow("cancelled");
  });

  it("a block never shortens and ends on time", () => {
    let now = 1000;
    const b = new BlockState(() => now);
    expect(b.blockedUntil()).toBeUndefined();
    b.block(5000);
    b.block(10);
    expect(b.blockedUntil()?.getTime()).toBe(6000);
    now = 6000;
    expect(b.blockedUntil()).toBeUndefined();
  });
});
