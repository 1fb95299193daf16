import { describe, expect, it } from "vitest";
import { toGeminiDeclaration } from "../../shared/tools/exporters";
import { registry } from "../../workers/registry";
import { type ChatAnswer, geminiKey, geminiRequests, postChat, scriptGemini } from "../helpers/chat";

const CORE = { CHAT_TOOLS: "greet,calculator" };

async function chat(key: string, body: unknown, vars: Record<string, string> = {}) {
  const res = await postChat(body, { vars: { GEMINI_API_KEY: key, ...CORE, ...vars } });
  return { status: res.status, body: (await res.json()) as ChatAnswer };
}

describe("POST /api/chat over this Worker's MCP tools (in-process)", () => {
  it("Gemini calls an MCP tool on its own and answers with its result", async () => {
    const key = geminiKey();
    await scriptGemini(key, [{ calls: [{ name: "greet", args: { name: "Юги" } }] }, { text: "Готово." }]);
    const { status, body } = await chat(key, { message: "Поздоровайся с Юги", history: [] });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ text: "Готово.", images: [], rounds: 2 });
    expect(body.toolCalls).toEqual([
      {
        round: 1,
        name: "greet",
        args: { name: "Юги" },
        ok: true,
        summary: "Привет, Юги! Я твой MCP-сервер.",
        images: 0,
      },
    ]);
    const [first, second] = await geminiRequests(key);
    // Declarations come from the MCP server's tools/list, converted by the registry's Gemini exporter.
    const decls = first?.body.tools?.[0]?.functionDeclarations ?? [];
    expect(decls.map((d) => d.name).sort()).toEqual(["calculator", "greet"]);
    expect(decls[0]?.parametersJsonSchema).not.toHaveProperty("$schema");
    const exported = ["greet", "calculator"].map((n) => {
      const tool = registry.get(n);
      if (!tool) throw new Error(`no tool ${n}`);
      return toGeminiDeclaration(tool);
    });
    expect([...decls].sort((a, b) => String(a.name).localeCompare(String(b.name)))).toEqual(
      exported.sort((a, b) => String(a.name).localeCompare(String(b.name))),
    );
    expect(first?.body.systemInstruction?.parts[0]?.text).toContain(
      "必ずMCPツール（get_theme_illustrations または get_card_illustration）",
    );
    expect(second?.body.contents.at(-1)).toEqual({
      role: "user",
      parts: [{ functionResponse: { name: "greet", response: { output: "Привет, Юги! Я твой MCP-сервер." } } }],
    });
  });

  it("runs several calls in one turn and several rounds, echoing every thoughtSignature", async () => {
    const key = geminiKey();
    await scriptGemini(key, [
      {
        calls: [
          { name: "greet", args: { name: "A" } },
          { name: "calculator", args: { expression: "2+2*5" } },
        ],
      },
      { calls: [{ name: "calculator", args: { expression: "12*3" } }] },
      { text: "12 и 36." },
    ]);
    const { status, body } = await chat(key, { message: "Посчитай", history: [] });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.text).toBe("12 и 36.");
    expect(body.rounds).toBe(3);
    expect(body.toolCalls.map((t) => [t.round, t.name, t.summary])).toEqual([
      [1, "greet", "Привет, A! Я твой MCP-сервер."],
      [1, "calculator", "12"],
      [2, "calculator", "36"],
    ]);
    const reqs = await geminiRequests(key);
    expect(reqs).toHaveLength(3);
    const last = reqs[2]?.body.contents ?? [];
    expect(last.map((c) => c.role)).toEqual(["user", "model", "user", "model", "user"]);
    // Model turns are replayed exactly as received, signatures on the parts.
    expect(last[1]?.parts.map((p) => p.thoughtSignature)).toEqual([btoa("sig-1-0"), btoa("sig-1-1")]);
    expect(last[3]?.parts.map((p) => p.thoughtSignature)).toEqual([btoa("sig-2-0")]);
    expect(last[2]?.parts.map((p) => (p.functionResponse as { name: string }).name)).toEqual(["greet", "calculator"]);
  });

  it("bounds the rounds: after CHAT_MAX_ROUNDS the model must answer without tools", async () => {
    const key = geminiKey();
    const call = { calls: [{ name: "greet", args: { name: "B" } }] };
    await scriptGemini(key, [call, call, { text: "Хватит." }]);
    const { status, body } = await chat(key, { message: "loop", history: [] }, { CHAT_MAX_ROUNDS: "2" });
    expect(status).toBe(200);
    expect(body.text).toBe("Хватит.");
    expect(body.toolCalls).toHaveLength(2);
    const reqs = await geminiRequests(key);
    expect(reqs.map((r) => r.body.toolConfig?.functionCallingConfig?.mode)).toEqual([undefined, undefined, "NONE"]);
  });

  it("feeds tool failures back to the model as errors it can read", async () => {
    const key = geminiKey();
    await scriptGemini(key, [
      {
        calls: [
          { name: "calculator", args: { expression: "2+" } },
          { name: "no_such_tool", args: {} },
        ],
      },
      { text: "Не вышло." },
    ]);
    const { status, body } = await chat(key, { message: "x", history: [] });
    expect(status).toBe(200);
    expect(body.toolCalls.map((t) => t.ok)).toEqual([false, false]);
    const reqs = await geminiRequests(key);
    const responses = reqs[1]?.body.contents.at(-1)?.parts.map((p) => p.functionResponse) ?? [];
    expect(responses[0]).toMatchObject({
      name: "calculator",
      response: { error: expect.stringContaining("Cannot evaluate") },
    });
    expect(responses[1]).toMatchObject({
      name: "no_such_tool",
      response: { error: 'There is no tool named "no_such_tool".' },
    });
  });

  it("sends the history before the message (assistant counts as model)", async () => {
    const key = geminiKey();
    await scriptGemini(key, [{ text: "ok" }]);
    const history = [
      { role: "user", text: "Привет" },
      { role: "assistant", text: "Здравствуй" },
      { role: "model", parts: [{ text: "Чем " }, { text: "помочь?" }] },
    ];
    const { status } = await chat(key, { message: "Дальше", history });
    expect(status).toBe(200);
    const [req] = await geminiRequests(key);
    expect(req?.body.contents).toEqual([
      { role: "user", parts: [{ text: "Привет" }] },
      { role: "model", parts: [{ text: "Здравствуй" }] },
      { role: "model", parts: [{ text: "Чем помочь?" }] },
      { role: "user", parts: [{ text: "Дальше" }] },
    ]);
  });

  it("reaches the tools with the caller's own token, so its family scope holds", async () => {
    const key = geminiKey();
    await scriptGemini(key, [{ text: "never" }]);
    const res = await postChat(
      { message: "hi", history: [] },
      { token: "test-token-cards", vars: { GEMINI_API_KEY: key, CHAT_TOOLS: "greet" } },
    );
    expect(res.status).toBe(502);
    expect(((await res.json()) as ChatAnswer).error).toMatch(/offers none of the chat's tools \(CHAT_TOOLS: greet\)/);
  });

  it("streams tool calls as they happen with Accept: text/event-stream", async () => {
    const key = geminiKey();
    await scriptGemini(key, [{ calls: [{ name: "greet", args: { name: "C" } }] }, { text: "done" }]);
    const res = await postChat(
      { message: "hi", history: [] },
      { vars: { GEMINI_API_KEY: key, ...CORE }, accept: "text/event-stream" },
    );
    expect(res.headers.get("Content-Type")).toMatch(/text\/event-stream/);
    const text = await res.text();
    const events = [...text.matchAll(/^event: (\S+)$/gm)].map((m) => m[1]);
    expect(events).toEqual(["tool_call", "tool_result", "done"]);
    expect(text).toContain('"text":"done"');
    expect(text).toMatch(/event: tool_result\ndata: \{"type":"tool_result","call":1,"round":1,"name":"greet"/);
  });

  it("requires the bearer token", async () => {
    const res = await postChat({ message: "hi" }, { token: null });
    expect(res.status).toBe(401);
  });
});
