/** Spec 004 end to end: Gemini (fake) → /api/chat → this Worker's card tools over MCP → image model. */
import { describe, expect, it } from "vitest";
import { type ChatAnswer, geminiKey, geminiRequests, postChat, scriptGemini } from "../helpers/chat";

type Part = Record<string, unknown> & { inlineData?: { mimeType: string; data: string } };

describe("spec 004: the chat uses the card-illustration tools by default", () => {
  it("offers the two card tools with the Japanese system prompt of 6-4", async () => {
    const key = geminiKey();
    await scriptGemini(key, [{ text: "はい" }]);
    const res = await postChat({ message: "こんにちは", history: [] }, { vars: { GEMINI_API_KEY: key } });
    expect(res.status).toBe(200);
    const [req] = await geminiRequests(key);
    const names = req?.body.tools?.[0]?.functionDeclarations?.map((d) => d.name).sort();
    expect(names).toEqual(["get_card_illustration", "get_theme_illustrations"]);
    expect(req?.body.systemInstruction?.parts[0]?.text).toMatch(
      /^あなたは遊戯王OCGの対戦動画サムネイルを作成するアシスタントです。\nユーザーの要望に応じて、必ずMCPツール/,
    );
  });

  it("Gemini fetches card illustrations on its own and the image model draws from them", async () => {
    const key = geminiKey();
    await scriptGemini(key, [
      {
        calls: [
          { name: "get_theme_illustrations", args: { theme: "Blue-Eyes", limit: 2 } },
          { name: "get_card_illustration", args: { card_name: "Blue-Eyes White Dragon" } },
        ],
      },
      { text: "青眼の白龍を中心に、迫力ある構図にします。" },
      { text: "サムネイルです。", image: true },
    ]);
    const res = await postChat(
      { message: "ブルーアイズの対戦動画サムネイルを作って", history: [] },
      { vars: { GEMINI_API_KEY: key } },
    );
    const body = (await res.json()) as ChatAnswer;
    expect(res.status, JSON.stringify(body).slice(0, 500)).toBe(200);
    expect(body.toolCalls.map((t) => [t.name, t.ok, t.images])).toEqual([
      ["get_theme_illustrations", true, 2],
      ["get_card_illustration", true, 1],
    ]);
    expect(body.text).toBe("青眼の白龍を中心に、迫力ある構図にします。");
    expect(body.images).toHaveLength(1);
    expect(body.imageModel).toBe("gemini-2.5-flash-image");

    const [, second, third] = await geminiRequests(key);
    const turn = (second?.body.contents.at(-1)?.parts ?? []) as Part[];
    const responses = turn.filter((p) => p.functionResponse);
    expect(responses.map((p) => (p.functionResponse as { name: string }).name)).toEqual([
      "get_theme_illustrations",
      "get_card_illustration",
    ]);
    // No image bytes inside the JSON; the artworks are image parts of the same turn.
    expect(JSON.stringify(responses)).not.toMatch(/\/9j\/|[A-Za-z0-9+/]{512}/);
    const artworks = turn.filter((p) => p.inlineData).map((p) => p.inlineData);
    expect(artworks).toHaveLength(3);
    expect(artworks.every((a) => a?.mimeType === "image/jpeg")).toBe(true);
    // 6-3's completion condition: the fetched illustrations reach the image generation.
    expect(third?.model).toBe("gemini-2.5-flash-image");
    const refs = ((third?.body.contents[0]?.parts ?? []) as Part[])
      .filter((p) => p.inlineData)
      .map((p) => p.inlineData);
    expect(refs).toEqual(artworks);
  });

  it("a card that does not exist comes back to Gemini as a readable tool error", async () => {
    const key = geminiKey();
    await scriptGemini(key, [
      { calls: [{ name: "get_card_illustration", args: { card_name: "Blue-Eyes Purple Dragon" } }] },
      { text: "見つかりませんでした。" },
    ]);
    const res = await postChat({ message: "x", history: [] }, { vars: { GEMINI_API_KEY: key } });
    const body = (await res.json()) as ChatAnswer;
    expect(res.status).toBe(200);
    expect(body.toolCalls[0]?.ok).toBe(false);
    expect(body.imageModel).toBeUndefined();
    const [, second] = await geminiRequests(key);
    const fr = second?.body.contents.at(-1)?.parts[0]?.functionResponse as { response: { error: string } };
    expect(fr.response.error.length).toBeGreaterThan(10);
  });
});
