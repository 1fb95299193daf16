import { describe, expect, it } from "vitest";
import { FAKE_MCP_TOKEN } from "../fakes/mcp-server";
import { type ChatAnswer, geminiKey, geminiRequests, postChat, remoteMcp, scriptGemini } from "../helpers/chat";

type Part = Record<string, unknown> & { inlineData?: { mimeType: string; data: string } };

function remote(server: { url: string }, key: string, vars: Record<string, string> = {}) {
  return {
    GEMINI_API_KEY: key,
    MCP_SERVER_URL: server.url,
    MCP_SERVER_TOKEN: FAKE_MCP_TOKEN,
    CHAT_TOOLS: "picture,echo",
    ...vars,
  };
}

async function chat(vars: Record<string, string>, message = "Нарисуй дракона") {
  const res = await postChat({ message, history: [] }, { vars });
  return { status: res.status, body: (await res.json()) as ChatAnswer };
}

describe("POST /api/chat against another MCP server (MCP_SERVER_URL)", () => {
  it("fetched illustrations reach the image model as inline image parts", async () => {
    const server = await remoteMcp();
    const key = geminiKey();
    await scriptGemini(key, [
      {
        calls: [
          { name: "picture", args: { subject: "dragon" } },
          { name: "picture", args: { subject: "knight" } },
        ],
      },
      { text: "Дракон против рыцаря." },
      { text: "Вот миниатюра.", image: true },
    ]);
    const { status, body } = await chat(remote(server, key));
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.text).toBe("Дракон против рыцаря.");
    expect(body.imageModel).toBe("gemini-2.5-flash-image");
    expect(body.images).toEqual([{ mimeType: "image/png", data: expect.stringMatching(/^iVBORw0KGgo/) }]);
    expect(body.toolCalls.map((t) => t.images)).toEqual([1, 1]);

    const [, second, third] = await geminiRequests(key);
    // Tool images go back to the tool model as image parts, not as base64 inside the JSON.
    const turn = (second?.body.contents.at(-1)?.parts ?? []) as Part[];
    expect(turn.filter((p) => p.functionResponse)).toHaveLength(2);
    expect(JSON.stringify(turn.filter((p) => p.functionResponse))).not.toMatch(/iVBORw0KGgo/);
    const toolImages = turn.filter((p) => p.inlineData).map((p) => p.inlineData);
    expect(toolImages).toHaveLength(2);
    // The image model receives the same illustrations as references, and is asked for an image.
    expect(third?.model).toBe("gemini-2.5-flash-image");
    expect(third?.body.generationConfig?.responseModalities).toEqual(["TEXT", "IMAGE"]);
    const refs = ((third?.body.contents[0]?.parts ?? []) as Part[])
      .filter((p) => p.inlineData)
      .map((p) => p.inlineData);
    expect(refs).toEqual(toolImages);
    expect(JSON.stringify(third?.body.contents[0]?.parts[0])).toContain("Дракон против рыцаря.");
  });

  it("takes images a server put inside JSON (spec 004's {mimeType, data}) out into image parts", async () => {
    const server = await remoteMcp();
    const key = geminiKey();
    await scriptGemini(key, [
      { calls: [{ name: "seed_theme", args: { theme: "Blue-Eyes" } }] },
      { text: "Две иллюстрации." },
      { text: "Готово.", image: true },
    ]);
    const { status, body } = await chat(remote(server, key, { CHAT_TOOLS: "seed_theme" }));
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.toolCalls.map((t) => t.images)).toEqual([2]);
    expect(body.toolCalls[0]?.summary).not.toMatch(/iVBORw0KGgo/);

    const [, second, third] = await geminiRequests(key);
    const turn = (second?.body.contents.at(-1)?.parts ?? []) as Part[];
    const fr = turn.find((p) => p.functionResponse)?.functionResponse as { response: Record<string, unknown> };
    // Neither the text nor the structured content carries the bytes, the small image's included.
    expect(JSON.stringify(fr)).not.toMatch(/iVBORw0KGgo/);
    expect(JSON.parse(String(fr.response.output))).toEqual({
      illustrations: [
        { card_name: "Blue-Eyes 1", mimeType: "image/png", data: "seed_theme#1.1 image 1 (attached as an image part)" },
        { card_name: "Blue-Eyes 2", mimeType: "image/png", data: "seed_theme#1.1 image 2 (attached as an image part)" },
      ],
    });
    const images = turn.filter((p) => p.inlineData).map((p) => p.inlineData);
    expect(images).toHaveLength(2);
    expect(images.every((i) => i?.mimeType === "image/png" && i.data.startsWith("iVBORw0KGgo"))).toBe(true);
    const refs = ((third?.body.contents[0]?.parts ?? []) as Part[]).filter((p) => p.inlineData);
    expect(refs.map((p) => p.inlineData)).toEqual(images);
  });

  it("gives Gemini 3 the images inside the function response (multimodal function responses)", async () => {
    const server = await remoteMcp();
    const key = geminiKey();
    await scriptGemini(key, [{ calls: [{ name: "picture", args: { subject: "cat" } }] }, { text: "ok", image: true }]);
    const { status, body } = await chat(remote(server, key, { GEMINI_MODEL: "gemini-3-pro-image-preview" }));
    expect(status).toBe(200);
    expect(body.images).toHaveLength(1);
    expect(body.imageModel).toBeUndefined();
    const [first, second] = await geminiRequests(key);
    expect(first?.body.generationConfig?.responseModalities).toEqual(["TEXT", "IMAGE"]);
    const parts = (second?.body.contents.at(-1)?.parts ?? []) as Part[];
    expect(parts).toHaveLength(1);
    const fr = parts[0]?.functionResponse as { parts: { inlineData: { mimeType: string; displayName: string } }[] };
    expect(fr.parts[0]?.inlineData).toMatchObject({ mimeType: "image/png", displayName: "picture#1.1-1" });
  });

  it("puts the MCP_SERVER_TOKEN bearer on every request to that server", async () => {
    const server = await remoteMcp();
    const key = geminiKey();
    await scriptGemini(key, [{ calls: [{ name: "echo", args: { text: "x" } }] }, { text: "ok" }]);
    const { status } = await chat(remote(server, key, { CHAT_IMAGE_MODE: "never" }));
    expect(status).toBe(200);
    const log = await server.log();
    expect(log.length).toBeGreaterThanOrEqual(3);
    expect(log.every((r) => r.authorization === `Bearer ${FAKE_MCP_TOKEN}`)).toBe(true);
  });

  it("answers 502 with a clear message when the MCP server does not answer", async () => {
    const server = await remoteMcp({ hang: true });
    const key = geminiKey();
    const started = Date.now();
    const { status, body } = await chat(remote(server, key, { MCP_CALL_TIMEOUT_MS: "300" }));
    expect(status).toBe(502);
    expect(body.error).toMatch(
      /^The MCP server at http:\/\/127\.0\.0\.1:\d+\/i\/[\w-]+\/mcp did not answer within 0\.3 s\.$/,
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await geminiRequests(key)).toHaveLength(0);
  });

  it("answers 502 when the MCP server is down, after retrying", async () => {
    const server = await remoteMcp({ down: true });
    const { status, body } = await chat(remote(server, geminiKey()));
    expect(status).toBe(502);
    expect(body.error).toMatch(/is not reachable \(no connection, 4 attempts\)/);
    expect(await server.log()).toHaveLength(4);
  });

  it("answers 502 when the MCP server refuses the token, without showing it", async () => {
    const server = await remoteMcp();
    const { status, body } = await chat(remote(server, geminiKey(), { MCP_SERVER_TOKEN: "not-the-token-42" }));
    expect(status).toBe(502);
    expect(body.error).toMatch(/refused the bearer token \(HTTP 401\); check MCP_SERVER_TOKEN/);
    expect(JSON.stringify(body)).not.toContain("not-the-token-42");
  });

  it("never forwards the caller's own token to another server", async () => {
    const server = await remoteMcp();
    const { status, body } = await chat(remote(server, geminiKey(), { MCP_SERVER_TOKEN: "" }));
    expect(status).toBe(502);
    expect(body.error).toMatch(/refused the bearer token \(HTTP 401\)/);
    const log = await server.log();
    expect(log.length).toBeGreaterThan(0);
    expect(log.every((r) => r.authorization === null)).toBe(true);
  });

  it("answers 502 when a tool call times out mid-conversation", async () => {
    const server = await remoteMcp();
    const key = geminiKey();
    await scriptGemini(key, [{ calls: [{ name: "slow", args: { ms: 3000 } }] }, { text: "never" }]);
    const { status, body } = await chat(remote(server, key, { CHAT_TOOLS: "slow", MCP_CALL_TIMEOUT_MS: "400" }));
    expect(status).toBe(502);
    expect(body.error).toMatch(/did not answer tools\/call slow within 0\.4 s/);
    expect(await geminiRequests(key)).toHaveLength(1);
  });
});
