/** Helpers for the chat tests: call /api/chat with per-test settings, script and inspect the fake Gemini. */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { GeminiStep } from "../fakes/gemini";
import type { ToolCallRecord } from "../../workers/chat/loop";
import worker from "../../workers/index";
import { BASE, TOKEN, fakeUrl } from "./mcp";

/** A recorded generateContent request (camelCase). */
export interface GeminiRequest {
  model: string;
  body: {
    contents: { role?: string; parts: Record<string, unknown>[] }[];
    tools?: { functionDeclarations?: { name: string; parametersJsonSchema?: unknown }[] }[];
    toolConfig?: { functionCallingConfig?: { mode?: string } };
    systemInstruction?: { parts: { text: string }[] };
    generationConfig?: { responseModalities?: string[] };
  };
}

/** A fresh Gemini API key: the fake keeps one scripted conversation per key. */
export function geminiKey(): string {
  return `fake-gemini-${crypto.randomUUID()}`;
}

/** Script the fake Gemini's next answers for `key`. */
export async function scriptGemini(key: string, steps: GeminiStep[], requireSignatures = true): Promise<void> {
  const res = await fetch(`${fakeUrl("gemini")}/__gemini/script`, {
    method: "POST",
    body: JSON.stringify({ key, steps, requireSignatures }),
  });
  if (!res.ok) throw new Error(`scripting the fake Gemini failed: HTTP ${res.status}`);
}

/** Every request the fake Gemini received with `key`. */
export async function geminiRequests(key: string): Promise<GeminiRequest[]> {
  const res = await fetch(`${fakeUrl("gemini")}/__gemini/requests?key=${encodeURIComponent(key)}`);
  return ((await res.json()) as { requests: GeminiRequest[] }).requests;
}

/** POST /api/chat into the Worker with settings overridden by `vars`. */
export async function postChat(
  body: unknown,
  opts: { vars?: Record<string, string>; token?: string | null; accept?: string; raw?: string } = {},
): Promise<Response> {
  const headers = new Headers({ "Content-Type": "application/json" });
  const token = opts.token === undefined ? TOKEN : opts.token;
  if (token) headers.set("Authorization", `Bearer ${token}`);
  if (opts.accept) headers.set("Accept", opts.accept);
  const req = new Request(new URL("/api/chat", BASE), {
    method: "POST",
    headers,
    body: opts.raw ?? JSON.stringify(body),
  });
  const ctx = createExecutionContext();
  const res = await worker.fetch(req, { ...env, ...opts.vars } as Env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** The parsed JSON of a chat answer. */
export interface ChatAnswer {
  text: string;
  images: { mimeType: string; data: string }[];
  toolCalls: ToolCallRecord[];
  rounds: number;
  imageModel?: string;
  error?: string;
}

/** One request seen by the fake remote MCP server. */
export interface McpLogEntry {
  method: string;
  path: string;
  authorization: string | null;
}

/** A private instance of the fake remote MCP server (test/fakes/mcp-server.ts), with its own knobs and log. */
export async function remoteMcp(knobs: Record<string, unknown> = {}) {
  const base = `${fakeUrl("mcp")}/i/${crypto.randomUUID()}`;
  const control = async (k: Record<string, unknown>) => {
    await fetch(`${base}/__control`, { method: "POST", body: JSON.stringify(k) });
  };
  await control(knobs);
  return {
    url: `${base}/mcp`,
    sseUrl: `${base}/sse`,
    control,
    log: async () => ((await (await fetch(`${base}/__control`)).json()) as { log: McpLogEntry[] }).log,
  };
}
