/**
 * The R2 artwork cache: each artwork is pulled from YGOPRODeck once. R2 persists between the
 * tests of a file (not between runs), so each test that needs a cold cache deletes its keys,
 * and each test counts pulls in its own namespace of the fake.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { fromBase64, sniffImage } from "../../shared/images/index";
import { IMAGE_BUDGET, artworkKeys } from "../../workers/cards/artwork";
import { callCards, fakeCardStats } from "../helpers/cards";

const KURIBOH = 40640057;

async function forget(imageId: number) {
  const listed = await env.FILES.list({ prefix: `cards/art/${imageId}/` });
  await Promise.all(listed.objects.map((o) => env.FILES.delete(o.key)));
}

const imageOf = (r: { content: { type: string; data?: string }[] }) =>
  sniffImage(fromBase64(r.content.find((b) => b.type === "image")?.data ?? ""));

describe("R2 artwork cache", () => {
  it("a second call for the same card pulls no image from upstream", async () => {
    await forget(KURIBOH);
    const first = await callCards("get_card_illustration", { card_name: "Kuriboh" }, "/cache-second");
    expect(first.isError).toBeFalsy();
    expect((await fakeCardStats("/cache-second")).pulls[KURIBOH]).toBe(1);
    const second = await callCards("get_card_illustration", { card_name: "Kuriboh" }, "/cache-second");
    expect(second.isError).toBeFalsy();
    expect((await fakeCardStats("/cache-second")).pulls[KURIBOH]).toBe(1);
    expect(second.content).toEqual(first.content);
    const keys = artworkKeys(KURIBOH, 512, 82);
    expect(await env.FILES.head(keys.original)).not.toBeNull();
    expect((await env.FILES.head(keys.resized))?.httpMetadata?.contentType).toBe("image/jpeg");
  });

  it("concurrent calls for the same card share one download", async () => {
    await forget(KURIBOH);
    const results = await Promise.all(
      [1, 2, 3, 4].map(() => callCards("get_card_illustration", { card_name: "Kuriboh" }, "/cache-concurrent")),
    );
    for (const r of results) expect(r.isError).toBeFalsy();
    expect((await fakeCardStats("/cache-concurrent")).pulls[KURIBOH]).toBe(1);
  });

  it("a theme after its cards were fetched singly pulls nothing new", async () => {
    await callCards("get_card_illustration", { card_name: "Dark Magician" }, "/cache-theme");
    await callCards("get_card_illustration", { card_name: "Dark Magician Girl" }, "/cache-theme");
    const before = await fakeCardStats("/cache-theme");
    const theme = await callCards("get_theme_illustrations", { theme: "Dark Magician", limit: 2 }, "/cache-theme");
    expect(theme.isError).toBeFalsy();
    expect((await fakeCardStats("/cache-theme")).pulls).toEqual(before.pulls);
  });

  it("a new CARD_IMAGE_MAX_SIDE re-uses the stored original instead of downloading again", async () => {
    await forget(KURIBOH);
    await callCards("get_card_illustration", { card_name: "Kuriboh" }, "/cache-side");
    const small = await callCards("get_card_illustration", { card_name: "Kuriboh" }, "/cache-side", {
      CARD_IMAGE_MAX_SIDE: "200",
    });
    expect(imageOf(small)).toMatchObject({ mime: "image/jpeg", width: 200, height: 200 });
    expect((await fakeCardStats("/cache-side")).pulls[KURIBOH]).toBe(1);
  });

  it("card lookups are kept too: a repeated call sends no API request", async () => {
    const ns = "/cache-lookup";
    await callCards("get_card_illustration", { card_name: "Pot of Greed" }, ns);
    const count = async () => (await fakeCardStats(ns)).apiRequests;
    const before = await count();
    await callCards("get_card_illustration", { card_name: "Pot of Greed" }, ns);
    expect(await count()).toBe(before);
    await callCards("get_card_illustration", { card_name: "Pot of Greed" }, ns, { CARD_DATA_TTL_HOURS: "0" });
    expect(await count()).toBe(before + 1);
  });
});

describe("result size", () => {
  it("a theme result stays under 1 MiB even with large artworks and a large max side", async () => {
    const ns = "/size~big";
    const ids = [89631139, 38517737, 23995346, 55410871, 2129638, 53347303, 71039903, 59085624];
    await Promise.all(ids.map(forget));
    try {
      const r = await callCards("get_theme_illustrations", { theme: "Blue-Eyes", limit: 10 }, ns, {
        CARD_IMAGE_MAX_SIDE: "2048",
      });
      expect(r.isError).toBeFalsy();
      // The stored artworks alone would not fit: the result had to be shrunk to stay under 1 MiB.
      const stored = await Promise.all(ids.map((id) => env.FILES.head(artworkKeys(id, 2048, 82).resized)));
      expect(stored.reduce((n, o) => n + (o?.size ?? 0), 0)).toBeGreaterThan(IMAGE_BUDGET);
      const imgs = r.content.filter((b) => b.type === "image");
      expect(imgs).toHaveLength(8);
      expect(JSON.stringify(r).length).toBeLessThan(1024 * 1024);
      for (const b of imgs) {
        const info = sniffImage(fromBase64(b.type === "image" ? b.data : ""));
        expect(info?.mime).toBe("image/jpeg");
        expect(info?.width).toBeLessThan(1600);
      }
    } finally {
      await Promise.all(ids.map(forget));
    }
  });
});
