/**
 * @module The function-calling loop of spec 004 (6-3): Gemini decides which MCP tools to call,
 * several per turn and over several rounds (bounded); each model turn is replayed exactly as
 * received (thoughtSignature included); tool images go back as image parts; when the answer
 * has no image but tools fetched references, an image model is chained with those references.
 */
import {
  type Content,
  type FunctionCall,
  FunctionCallingConfigMode,
  type GenerateContentConfig,
  type Part,
} from "@google/genai";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { errorMessage } from "../../shared/errors";
import type { Generate } from "./gemini";
import { McpConnectionError } from "./mcp-client";
import {
  type ChatImage,
  functionResponseTurn,
  imageParts,
  offerTools,
  type ToolOutput,
  toolOutput,
} from "./tool-output";

/** One earlier message of the conversation. */
export interface ChatTurn {
  role: "user" | "model";
  text: string;
}

/** A tool call the model made, as reported to the caller. */
export interface ToolCallRecord {
  round: number;
  name: string;
  args: Record<string, unknown>;
  ok: boolean;
  /** The start of the tool's text output (or its error). */
  summary: string;
  images: number;
}

/** What /api/chat answers. */
export interface ChatResult {
  text: string;
  images: ChatImage[];
  toolCalls: ToolCallRecord[];
  /** Model rounds used (tool rounds plus the final answer). */
  rounds: number;
  /** The image model, when one was chained. */
  imageModel?: string;
}

/** Progress while the loop runs (for text/event-stream). */
export type ChatEvent =
  | { type: "tool_call"; round: number; call: number; name: string; args: Record<string, unknown> }
  | { type: "tool_result"; round: number; call: number; name: string; ok: boolean; summary: string; images: number }
  | { type: "image_generation"; model: string; references: number };

/** What the loop needs from an MCP client (McpClient has it). */
export interface ToolSource {
  listTools(): Promise<Tool[]>;
  executeTool(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
}

/** Settings of one chat run. */
export interface LoopOptions {
  generate: Generate;
  tools: ToolSource;
  model: string;
  imageModel: string;
  systemPrompt: string;
  /** Tool names to offer (`*` = all). */
  offer: readonly string[];
  /** Rounds in which the model may call tools; then it must answer in text. */
  maxRounds: number;
  imageMode: "auto" | "always" | "never";
  onEvent?: (e: ChatEvent) => void;
}

/** How many reference images the image model gets at most. */
const MAX_REFERENCES = 10;

function textOf(parts: readonly Part[]): string {
  return parts
    .filter((p) => typeof p.text === "string" && p.thought !== true)
    .map((p) => p.text)
    .join("")
    .trim();
}

function inlineImages(parts: readonly Part[]): ChatImage[] {
  const out: ChatImage[] = [];
  for (const p of parts) {
    const d = p.inlineData;
    if (d?.data && d.mimeType?.startsWith("image/")) out.push({ mimeType: d.mimeType, data: d.data });
  }
  return out;
}

/** Whether a model can output images itself (Gemini image models do). */
function outputsImages(model: string): boolean {
  return /image/i.test(model);
}

/** Run one chat message through Gemini and the MCP tools. Throws GeminiError / McpConnectionError. */
export async function runChat(message: string, history: readonly ChatTurn[], opts: LoopOptions): Promise<ChatResult> {
  const offered = offerTools(await opts.tools.listTools(), opts.offer);
  const contents: Content[] = [
    ...history.map((t) => ({ role: t.role, parts: [{ text: t.text }] })),
    { role: "user", parts: [{ text: message }] },
  ];
  const base: GenerateContentConfig = {
    systemInstruction: { parts: [{ text: opts.systemPrompt }] },
    tools: [{ functionDeclarations: offered.declarations }],
    ...(outputsImages(opts.model) ? { responseModalities: ["TEXT", "IMAGE"] } : {}),
  };
  const toolCalls: ToolCallRecord[] = [];
  const references: ChatImage[] = [];
  let answer: Content;
  let rounds = 0;
  for (;;) {
    rounds++;
    // After maxRounds tool rounds the model must answer with what it has.
    const last = rounds > opts.maxRounds;
    const config: GenerateContentConfig = last
      ? { ...base, toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.NONE } } }
      : base;
    const turn = await opts.generate({ model: opts.model, contents, config });
    const calls = (turn.parts ?? []).flatMap((p) => (p.functionCall ? [p.functionCall] : []));
    if (calls.length === 0 || last) {
      answer = turn;
      break;
    }
    contents.push(turn);
    const answers = await runCalls(calls, rounds, offered.mcpName, opts);
    // Reported in call order, not completion order.
    for (const a of answers) {
      toolCalls.push(a.record);
      references.push(...a.output.images);
    }
    contents.push({ role: "user", parts: functionResponseTurn(opts.model, answers) });
  }

  const parts = answer.parts ?? [];
  const result: ChatResult = { text: textOf(parts), images: inlineImages(parts), toolCalls, rounds };
  const chain = opts.imageMode === "always" || (opts.imageMode === "auto" && references.length > 0);
  if (result.images.length === 0 && chain) {
    const refs = references.slice(0, MAX_REFERENCES);
    opts.onEvent?.({ type: "image_generation", model: opts.imageModel, references: refs.length });
    const generated = await opts.generate({
      model: opts.imageModel,
      contents: [
        {
          role: "user",
          parts: [{ text: imagePrompt(opts.systemPrompt, message, result.text, refs.length) }, ...imageParts(refs)],
        },
      ],
      config: { responseModalities: ["TEXT", "IMAGE"] },
    });
    result.images = inlineImages(generated.parts ?? []);
    result.imageModel = opts.imageModel;
    if (!result.text) result.text = textOf(generated.parts ?? []);
  }
  return result;
}

/** Run one model turn's calls in parallel; each result keeps its call's index. */
function runCalls(
  calls: readonly FunctionCall[],
  round: number,
  mcpName: ReadonlyMap<string, string>,
  opts: LoopOptions,
) {
  return Promise.all(
    calls.map(async (call, i) => {
      const declName = call.name ?? "";
      const args = (call.args ?? {}) as Record<string, unknown>;
      const name = mcpName.get(declName) ?? declName;
      // Calls finish in any order: `call` pairs each progress event with its call.
      opts.onEvent?.({ type: "tool_call", round, call: i + 1, name, args });
      const label = `${name}#${round}.${i + 1}`;
      const output = await callTool(opts.tools, mcpName.has(declName), name, args, label);
      const summary = (output.text || (output.ok ? "(no text)" : "The tool failed.")).slice(0, 300);
      const record: ToolCallRecord = { round, name, args, ok: output.ok, summary, images: output.images.length };
      opts.onEvent?.({ type: "tool_result", call: i + 1, ...record });
      return { name: declName, id: call.id, output, label, record };
    }),
  );
}

/** Call one tool; tool-level failures become error outputs the model reads, transport failures throw. */
async function callTool(
  tools: ToolSource,
  known: boolean,
  name: string,
  args: Record<string, unknown>,
  label: string,
): Promise<ToolOutput> {
  if (!known) {
    return toolOutput({ isError: true, content: [{ type: "text", text: `There is no tool named "${name}".` }] }, label);
  }
  try {
    return toolOutput(await tools.executeTool(name, args), label);
  } catch (err) {
    if (err instanceof McpConnectionError) throw err;
    return toolOutput({ isError: true, content: [{ type: "text", text: errorMessage(err) }] }, label);
  }
}

/** The image model's prompt: the system prompt, the request, the planner's direction, the references. */
function imagePrompt(system: string, message: string, direction: string, refs: number): string {
  const lines = [system, "", `リクエスト: ${message}`];
  if (direction) lines.push("", `方針: ${direction}`);
  if (refs > 0) lines.push("", `添付の公式カードイラスト${refs}枚を参照して画像を生成してください。`);
  return lines.join("\n");
}
