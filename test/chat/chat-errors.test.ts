import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../workers/index";
import type { GeminiStep } from "../fakes/gemini";
import { type ChatAnswer, geminiKey, geminiRequests, postChat, scriptGemini } from "../helpers/chat";
import { BASE, TOKEN, api } from "../helpers/mcp";

const CORE = { CHAT_TOOLS: "greet,calculator" };

async function chat(body: unknown, vars: Record<string, string> = {}, raw?: string) {
  const res = await postChat(body, { vars: { ...CORE, ...vars }, ...(raw === undefined ? {} : { raw }) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as ChatAnswer };
}

describe("POST /api/chat refuses bad requests with a 400 naming the problem", () => {
  it.each([
    ["no message", { history: [] }, /"message" is required/],
    ["an empty message", { message: "  " }, /"message" is required/],
    ["history that is not an array", { message: "hi", history: "earlier" }, /"history" must be an array/],
    ["a history entry that is not an object", { message: "hi", history: ["hello"] }, /history\[0\] must be an object/],
    [
      "a history entry with an unknown role",
      {
        message: "hi",
        history: [
          { role: "user", text: "a" },
          { role: "system", text: "b" },
        ],
      },
      /history\[1\]\.role must be "user" or "model" \(got "system"\)/,
    ],
    [
      "a history entry without text",
      { message: "hi", history: [{ role: "user" }] },
      /history\[0\] needs a "text" string/,
    ],
    [
      "a history entry with an image part",
      { message: "hi", history: [{ role: "user", parts: [{ inlineData: {} }] }] },
      /history\[0\]\.parts\[0\] must be \{"text": "..."\}/,
    ],
  ])("%s", async (_name, body, message) => {
    const { status, body: answer } = await chat(body);
    expect(status).toBe(400);
    expect(answer.error).toMatch(message);
  });

  it("too many history entries", async () => {
    const history = Array.from({ length: 4 }, (_, i) => ({ role: i % 2 ? "model" : "user", text: "x" }));
    const { status, body } = await chat({ message: "hi", history }, { CHAT_MAX_HISTORY: "3" });
    expect(status).toBe(400);
    expect(body.error).toMatch(/"history" has 4 entries; at most 3 are accepted \(CHAT_MAX_HISTORY\)/);
  });

  it("a body that is not JSON", async () => {
    const { status, body } = await chat(undefined, {}, "{not json");
    expect(status).toBe(400);
    expect(body.error).toBe("Request body is not valid JSON.");
  });

  it("a body larger than CHAT_MAX_BODY_BYTES → 413", async () => {
    const { status, body } = await chat({ message: "x".repeat(3000) }, { CHAT_MAX_BODY_BYTES: "2048" });
    expect(status).toBe(413);
    expect(body.error).toMatch(/larger than 2048 bytes \(CHAT_MAX_BODY_BYTES\)/);
  });
});

describe("a streamed body without Content-Length", () => {
  it("is cut off at CHAT_MAX_BODY_BYTES → 413, without reading the rest", async () => {
    let pulled = 0;
    const chunk = new TextEncoder().encode(`{"message":"${"x".repeat(1000)}`);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // 10 MB if read to the end.
        if (pulled >= 10_000_000) return controller.close();
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const req = new Request(new URL("/api/chat", BASE), {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
      body,
    });
    expect(req.headers.get("Content-Length")).toBeNull();
    const ctx = createExecutionContext();
    const res = await worker.fetch(req, { ...env, ...CORE, CHAT_MAX_BODY_BYTES: "4096" } as Env, ctx);
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(413);
    expect(((await res.json()) as ChatAnswer).error).toMatch(/larger than 4096 bytes/);
    expect(pulled).toBeLessThan(100_000);
  });
});

describe("Gemini failures are clear answers, not crashes", () => {
  async function failWith(step: GeminiStep, vars: Record<string, string> = {}) {
    const key = geminiKey();
    await scriptGemini(key, [step]);
    return { key, ...(await chat({ message: "hi", history: [] }, { GEMINI_API_KEY: key, ...vars })) };
  }

  it("quota exhausted → 429 with Retry-After", async () => {
    const { status, headers, body } = await failWith({ error: "quota" });
    expect(status).toBe(429);
    expect(headers.get("Retry-After")).toBe("23");
    expect(body.error).toBe("Gemini quota is exhausted (HTTP 429 RESOURCE_EXHAUSTED): try again in 23 s.");
  });

  it("prompt blocked for safety → 422", async () => {
    const { status, body } = await failWith({ blocked: "SAFETY" });
    expect(status).toBe(422);
    expect(body.error).toBe("Gemini blocked the request (SAFETY); rephrase it and try again.");
  });

  it("answer stopped for safety → 422", async () => {
    const { status, body } = await failWith({ finishReason: "SAFETY" });
    expect(status).toBe(422);
    expect(body.error).toMatch(/Gemini stopped the answer \(SAFETY\)/);
  });

  it("malformed function call → 502 saying so", async () => {
    const { status, body } = await failWith({ finishReason: "MALFORMED_FUNCTION_CALL" });
    expect(status).toBe(502);
    expect(body.error).toMatch(/malformed function call \(MALFORMED_FUNCTION_CALL\)/);
  });

  it("no candidates → 502", async () => {
    const { status, body } = await failWith({ empty: true });
    expect(status).toBe(502);
    expect(body.error).toBe("Gemini returned no answer (no candidates); try again.");
  });

  it("a refused API key → 502 without the key", async () => {
    const { key, status, body } = await failWith({ error: "bad-key" });
    expect(status).toBe(502);
    expect(body.error).toMatch(/Gemini refused the API key \(HTTP 400 INVALID_ARGUMENT\): check GEMINI_API_KEY/);
    expect(JSON.stringify(body)).not.toContain(key);
  });

  it("an unknown model → 502 naming it", async () => {
    const { status, body } = await failWith({ error: "not-found" }, { GEMINI_MODEL: "gemini-9" });
    expect(status).toBe(502);
    expect(body.error).toMatch(/does not know the model "gemini-9"/);
  });

  it("Gemini overloaded → 503", async () => {
    const { status, body } = await failWith({ error: "unavailable" });
    expect(status).toBe(503);
    expect(body.error).toMatch(/Gemini is unavailable \(HTTP 503 UNAVAILABLE\)/);
  });

  it("Gemini silent → 504 after GEMINI_TIMEOUT_MS", async () => {
    const { status, body } = await failWith({ hang: true }, { GEMINI_TIMEOUT_MS: "1000" });
    expect(status).toBe(504);
    expect(body.error).toBe("Gemini did not answer within 1 s.");
  });

  it("no GEMINI_API_KEY → 503 saying what to set", async () => {
    const { status, body } = await chat({ message: "hi" }, { GEMINI_API_KEY: "" });
    expect(status).toBe(503);
    expect(body.error).toMatch(/set GEMINI_API_KEY/);
  });

  it("errors arrive as an SSE error event when streaming", async () => {
    const key = geminiKey();
    await scriptGemini(key, [{ error: "quota" }]);
    const res = await postChat(
      { message: "hi" },
      { vars: { GEMINI_API_KEY: key, ...CORE }, accept: "text/event-stream" },
    );
    const text = await res.text();
    expect(text).toMatch(/^event: error$/m);
    expect(text).toContain('"status":429');
    expect(await geminiRequests(key)).toHaveLength(1);
  });
});

describe("GET /chat", () => {
  it("serves the page without a token, self-contained, with a strict CSP", async () => {
    const res = await api("/chat", { token: null });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/text\/html/);
    const csp = res.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/connect-src 'self'/);
    const html = await res.text();
    expect(html).toContain('id="token-input"');
    expect(html).toContain('name="viewport"');
    expect(html).not.toMatch(/\b(src|href)="https?:/);
  });
});
