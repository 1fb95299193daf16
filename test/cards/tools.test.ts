/** The two card tools through the MCP SDK Client, as spec 004 describes them. */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromBase64, sniffImage } from "../../shared/images/index";
import { firstText } from "../helpers/cards";
import { connect } from "../helpers/mcp";

const CARDS_TOKEN = "test-token-cards";

type Block = { type: string; text?: string; data?: string; mimeType?: string };
const blocks = (r: object) => ((r as { content?: unknown }).content ?? []) as Block[];
const images = (r: object) => blocks(r).filter((b) => b.type === "image");

function expectJpeg(b: Block | undefined, maxSide = 512) {
  expect(b?.mimeType).toBe("image/jpeg");
  const info = sniffImage(fromBase64(b?.data ?? ""));
  expect(info?.mime).toBe("image/jpeg");
  expect(Math.max(info?.width ?? 0, info?.height ?? 0)).toBeLessThanOrEqual(maxSide);
  expect(info?.width).toBeGreaterThan(0);
}

describe.each(["streamable-http", "sse"] as const)("cards over %s with a cards-only token", (transport) => {
  let client: Client;
  beforeAll(async () => {
    client = await connect(transport === "sse" ? "/cards/sse" : "/cards/mcp", transport, CARDS_TOKEN);
  });
  afterAll(async () => {
    await client.close();
  });

  it("lists exactly the two card tools, read-only and open-world, asking for English names", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).toSorted()).toEqual(["get_card_illustration", "get_theme_illustrations"]);
    for (const t of tools) {
      expect(t.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
      expect(t.description).toMatch(/English/);
      expect(t.outputSchema).toBeDefined();
    }
    const theme = tools.find((t) => t.name === "get_theme_illustrations");
    expect(theme?.inputSchema.required).toEqual(["theme"]);
  });

  it("get_card_illustration: exact name → the artwork as an image block plus a text naming the card", async () => {
    const r = await client.callTool({ name: "get_card_illustration", arguments: { card_name: "Dark Magician" } });
    expect(r.isError).toBeFalsy();
    expect(firstText(r)).toContain("Dark Magician");
    expect(images(r)).toHaveLength(1);
    expectJpeg(images(r)[0]);
    expect(r.structuredContent).toMatchObject({
      card_name: "Dark Magician",
      card_id: 46986414,
      image_id: 46986414,
      mimeType: "image/jpeg",
      match: "exact",
      width: 512,
      height: 512,
    });
    expect(JSON.stringify(r.structuredContent)).not.toMatch(/base64|\/9j\//);
  });

  it("get_card_illustration: a loose spelling falls back to the fuzzy name search", async () => {
    const part = await client.callTool({ name: "get_card_illustration", arguments: { card_name: "magician girl" } });
    expect(part.structuredContent).toMatchObject({ card_name: "Dark Magician Girl", match: "fuzzy" });
    expect(firstText(part)).toContain('Closest match for "magician girl"');
    const spaced = await client.callTool({
      name: "get_card_illustration",
      arguments: { card_name: "blue eyes white dragon" },
    });
    expect(spaced.structuredContent).toMatchObject({ card_name: "Blue-Eyes White Dragon", match: "fuzzy" });
    expect(images(spaced)).toHaveLength(1);
  });

  it("get_theme_illustrations: an archetype gives 5 artworks by default, monsters first, each named", async () => {
    const r = await client.callTool({ name: "get_theme_illustrations", arguments: { theme: "Blue-Eyes" } });
    expect(r.isError).toBeFalsy();
    const data = r.structuredContent as { illustrations: { card_name: string }[]; total_found: number };
    expect(data).toMatchObject({ theme: "Blue-Eyes", match: "archetype", total_found: 8 });
    expect(data.illustrations).toHaveLength(5);
    expect(images(r)).toHaveLength(5);
    for (const img of images(r)) expectJpeg(img);
    expect(data.illustrations.map((i) => i.card_name)).not.toContain("Roar of the Blue-Eyed Dragons");
    for (const { card_name } of data.illustrations) expect(firstText(r)).toContain(card_name);
    // Each image follows a text block naming its card, so a model can tell them apart.
    const bs = blocks(r);
    const firstImage = bs.findIndex((b) => b.type === "image");
    expect(bs[firstImage - 1]?.text).toBe(`1. ${data.illustrations[0]?.card_name}`);
  });

  it("get_theme_illustrations: limit is honoured and bounded", async () => {
    const two = await client.callTool({
      name: "get_theme_illustrations",
      arguments: { theme: "Dark Magician", limit: 2 },
    });
    expect(images(two)).toHaveLength(2);
    const tooMany = await client.callTool({
      name: "get_theme_illustrations",
      arguments: { theme: "Blue-Eyes", limit: 50 },
    });
    expect(tooMany.isError).toBe(true);
    expect(firstText(tooMany)).toMatch(/limit/);
  });

  it("no match → a clear error that suggests close names", async () => {
    const card = await client.callTool({
      name: "get_card_illustration",
      arguments: { card_name: "Blue-Eyez White Dragun" },
    });
    expect(card.isError).toBe(true);
    expect(firstText(card)).toMatch(/No card matching "Blue-Eyez White Dragun" was found on YGOPRODeck/);
    expect(firstText(card)).toContain('"Blue-Eyes White Dragon"');
    const theme = await client.callTool({ name: "get_theme_illustrations", arguments: { theme: "Blu Eyes" } });
    expect(theme.isError).toBe(true);
    expect(firstText(theme)).toContain('"Blue-Eyes"');
  });

  it("full-width Latin letters are read as ASCII", async () => {
    const r = await client.callTool({ name: "get_card_illustration", arguments: { card_name: "Ｋｕｒｉｂｏｈ" } });
    expect(r.structuredContent).toMatchObject({ card_name: "Kuriboh", match: "exact" });
  });

  it("a Japanese name → an error asking for the English name", async () => {
    const r = await client.callTool({ name: "get_theme_illustrations", arguments: { theme: "ブルーアイズ" } });
    expect(r.isError).toBe(true);
    expect(firstText(r)).toMatch(/English/);
    expect(firstText(r)).toContain("Blue-Eyes");
  });
});

describe("cards route and tokens", () => {
  it("a token limited to another family cannot open /cards/mcp", async () => {
    await expect(connect("/cards/mcp", "streamable-http", "test-token-core")).rejects.toThrow();
  });
  it("no token, no session", async () => {
    await expect(connect("/cards/mcp", "streamable-http", null)).rejects.toThrow();
  });
  it("the shared /mcp route lists the card tools too", async () => {
    const client = await connect("/mcp");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(["get_card_illustration", "get_theme_illustrations"]),
    );
    await client.close();
  });
});
