/** Helpers for the cards family's tests: calls with per-test settings, and the fake YGOPRODeck's namespaces. */
import { registry } from "../../workers/registry";
import type { ToolResult } from "../../shared/tools/define-tool";
import { fakeUrl } from "./mcp";
import { toolContext } from "./context";

/** API base URL of a fake namespace (its own pull counters and rate window), e.g. `/t1~garbage`. */
export function cardApi(ns: string): string {
  return `${fakeUrl("ygoprodeck")}${ns}/api/v7`;
}

/** Call a cards tool through the registry (validation + error mapping) against namespace `ns`. */
export async function callCards(
  name: string,
  args: Record<string, unknown>,
  ns: string,
  vars: Record<string, string> = {},
): Promise<ToolResult> {
  const tool = registry.get(name);
  if (!tool) throw new Error(`no tool ${name}`);
  const ctx = toolContext({ CARD_API_URL: cardApi(ns), ...vars });
  return (await registry.call(tool, args, ctx)).result;
}

/** Image pulls per artwork id, cardinfo requests answered, max requests seen in one second, and refused requests, in namespace `ns`. */
export async function fakeCardStats(
  ns: string,
): Promise<{ pulls: Record<string, number>; apiRequests: number; maxPerSecond: number; rejected: number }> {
  return (await fetch(`${fakeUrl("ygoprodeck")}${ns}/__stats`)).json();
}

/** Text of the first text block. */
export function firstText(r: object): string {
  const blocks = ((r as { content?: unknown }).content ?? []) as { type: string; text?: string }[];
  return blocks.find((b) => b.type === "text")?.text ?? "";
}
