/** @module Reading and validating the body of POST /api/chat: size, JSON, message, history. */
import { readAtMost } from "../../shared/http/body";
import { HttpError } from "../../shared/errors";
import type { ChatTurn } from "./loop";

/** The most characters one message (or one history entry) may have. */
export const MAX_MESSAGE_CHARS = 32_000;

/** A validated chat request. */
export interface ChatRequest {
  message: string;
  history: ChatTurn[];
}

const ROLES: Record<string, ChatTurn["role"]> = { user: "user", model: "model", assistant: "model" };

function bad(message: string): never {
  throw new HttpError(400, message);
}

function entryText(entry: Record<string, unknown>, at: string): string {
  if (typeof entry.text === "string") return entry.text;
  // Also accept Gemini's own shape, {role, parts: [{text}]}, text parts only.
  if (Array.isArray(entry.parts)) {
    return entry.parts
      .map((p: unknown, j) => {
        const text = (p as { text?: unknown } | null)?.text;
        if (typeof text !== "string") bad(`${at}.parts[${j}] must be {"text": "..."}; only text history is accepted.`);
        return text;
      })
      .join("");
  }
  return bad(`${at} needs a "text" string (or "parts": [{"text": ...}]).`);
}

/** Validate a parsed body; every failure is a 400 naming the field and the problem. */
export function validateChatRequest(body: unknown, maxHistory: number): ChatRequest {
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    bad('Body must be a JSON object: {"message": "...", "history": [...]}.');
  }
  const { message, history = [] } = body as { message?: unknown; history?: unknown };
  if (typeof message !== "string" || !message.trim()) bad('Field "message" is required: a non-empty string.');
  if (message.length > MAX_MESSAGE_CHARS) bad(`Field "message" is longer than ${MAX_MESSAGE_CHARS} characters.`);
  if (!Array.isArray(history)) bad('Field "history" must be an array of {"role": "user" | "model", "text": "..."}.');
  if (history.length > maxHistory) {
    bad(`Field "history" has ${history.length} entries; at most ${maxHistory} are accepted (CHAT_MAX_HISTORY).`);
  }
  const turns = history.map((raw: unknown, i): ChatTurn => {
    const at = `history[${i}]`;
    if (!raw || typeof raw !== "object" || Array.isArray(raw)) bad(`${at} must be an object {"role", "text"}.`);
    const entry = raw as Record<string, unknown>;
    const role = typeof entry.role === "string" ? ROLES[entry.role] : undefined;
    if (!role) bad(`${at}.role must be "user" or "model" (got ${JSON.stringify(entry.role ?? null)}).`);
    const text = entryText(entry, at);
    if (text.length > MAX_MESSAGE_CHARS) bad(`${at} is longer than ${MAX_MESSAGE_CHARS} characters.`);
    return { role, text };
  });
  return { message, history: turns };
}

/**
 * Read the body as JSON, refusing more than `maxBytes` (by Content-Length first, then by the
 * bytes actually read, so a missing or lying header does not help).
 */
export async function readChatBody(req: Request, maxBytes: number): Promise<unknown> {
  const tooBig = () =>
    new HttpError(413, `Request body is larger than ${maxBytes} bytes (CHAT_MAX_BODY_BYTES); shorten the history.`);
  const declared = Number(req.headers.get("Content-Length") ?? "0");
  if (declared > maxBytes) throw tooBig();
  const text = new TextDecoder().decode(await readAtMost(req.body, maxBytes, tooBig));
  if (!text.trim()) bad('Body is empty; send {"message": "...", "history": [...]}.');
  try {
    return JSON.parse(text);
  } catch {
    return bad("Request body is not valid JSON.");
  }
}
