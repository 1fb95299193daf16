import { describe, expect, it } from "vitest";
import { type ChatAnswer, geminiKey, geminiRequests, postChat, scriptGemini } from "../helpers/chat";

describe("POST /api/chat over this Worker's MCP tools", () => {
  it("Gemini calls an MCP tool on its own and answers with its result", async () => {
    const key = geminiKey();
    await scriptGemini(key, [{ calls: [{ name: "greet", args: { name: "Юги" } }] }, { text: "Готово." }]);
    const res = await postChat({ message: "Поздоровайся с Юги", history: [] }, { vars: { GEMINI_API_KEY: key, CHAT_TOOLS: "greet" } });
    const body = (await res.json()) as ChatAnswer;
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.text).toBe("Готово.");
    expect(body.toolCalls).toEqual([
      expect.objectContaining({ name: "greet", args: { name: "Юги" }, ok: true, summary: "Привет, Юги! Я твой MCP-сервер." }),
    ]);
    const reqs = await geminiRequests(key);
    expect(reqs).toHaveLength(2);
    console.log(JSON.stringify(reqs[1]?.body, null, 1).slice(0, 3000));
  });
});
