/** Helpers for the Anki tests: call tools against a chosen fake AnkiConnect, read the fake's state. */
import { registry } from "../../workers/registry";
import type { ToolResult } from "../../shared/tools/define-tool";
import { toolContext } from "./context";
import { fakeControl, fakeStats, fakeUrl } from "./mcp";

/** A note as the fake stores it. */
export interface FakeNote {
  id: number;
  model: string;
  deck: string;
  fields: Record<string, string>;
  tags: string[];
  cards: number[];
}

/** What the fake AnkiConnect exposes through /__control. */
export interface AnkiState {
  notes: FakeNote[];
  decks: string[];
  media: Record<string, number>;
  received: Record<string, unknown>[];
}

/** State of an AnkiConnect fake. */
export async function ankiState(fake = "anki"): Promise<AnkiState> {
  return ((await fakeStats(fake)) as unknown as { state: AnkiState }).state;
}

/** AnkiConnect requests a fake has served since its last reset. */
export async function ankiRequests(fake: string): Promise<number> {
  return (await fakeStats(fake)).requests;
}

/** Reset a fake (state, knobs, counters) and optionally set knobs. */
export async function resetFake(fake: string, knobs?: Record<string, unknown>): Promise<void> {
  await fakeControl(fake, null);
  if (knobs) await fakeControl(fake, knobs);
}

/** Send one raw AnkiConnect action to a fake (to seed or inspect data; counts as a request). */
export async function ankiAction<T = unknown>(fake: string, action: string, params: Record<string, unknown> = {}) {
  const res = await fetch(fakeUrl(fake), { method: "POST", body: JSON.stringify({ action, version: 6, params }) });
  const body = (await res.json()) as { result: T; error: string | null };
  if (body.error) throw new Error(body.error);
  return body.result;
}

/**
 * Call a tool through the registry (validation, error mapping) against the AnkiConnect fake `fake`,
 * with extra settings.
 */
export async function callAnki(
  fake: string,
  name: string,
  args: unknown,
  vars: Record<string, string> = {},
): Promise<ToolResult> {
  const tool = registry.get(name);
  if (!tool) throw new Error(`no tool ${name}`);
  const ctx = toolContext({ ANKI_CONNECT_URL: fakeUrl(fake), ...vars });
  return (await registry.call(tool, args, ctx)).result;
}

/** The text of a result's first content block. */
export function textOf(res: { content?: unknown }): string {
  const block = (res.content as { type: string; text?: string }[] | undefined)?.[0];
  return block?.text ?? "";
}

/** structuredContent, typed for assertions. */
export function dataOf<T = Record<string, unknown>>(res: object): T {
  return (res as { structuredContent?: unknown }).structuredContent as T;
}
