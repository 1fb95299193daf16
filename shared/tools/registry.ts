/**
 * @module The tool registry: every family's tools by name, scope filtering, and `call()` — the one
 * wrapper that validates, times, logs and maps errors for MCP and REST alike.
 */
import { ToolError, UpstreamError, ValidationError, errorMessage } from "../errors";
import type { ToolContext } from "./context";
import type { AnyTool, ToolFamily, ToolResult } from "./define-tool";
import { errorResult } from "./results";
import { parseArgs } from "./validate";

const PROVIDER_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** A provider-safe function name: characters outside [a-zA-Z0-9_-] become "_" (e.g. anki.model_info → anki_model_info). */
export function providerName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
}

/** How a call failed, for REST status codes and logs. */
export type FailureKind = "validation" | "tool" | "upstream" | "internal";

export interface CallOutcome {
  result: ToolResult;
  failure?: FailureKind;
  ms: number;
}

/** Every tool of every family, looked up by exact name or provider-safe name. */
export class ToolRegistry {
  readonly families: readonly ToolFamily[];
  private readonly byName = new Map<string, { tool: AnyTool; family: string }>();
  private readonly byProviderName = new Map<string, string>();

  constructor(families: readonly ToolFamily[]) {
    this.families = families;
    for (const fam of families) {
      for (const tool of fam.tools) {
        if (this.byName.has(tool.name)) throw new Error(`Duplicate tool name "${tool.name}" (family ${fam.name})`);
        const pn = providerName(tool.name);
        if (!PROVIDER_NAME.test(pn))
          throw new Error(`Tool name "${tool.name}" cannot be mapped to a provider-safe name`);
        const clash = this.byProviderName.get(pn);
        if (clash && clash !== tool.name)
          throw new Error(`Tools "${clash}" and "${tool.name}" map to the same provider name "${pn}"`);
        this.byName.set(tool.name, { tool, family: fam.name });
        this.byProviderName.set(pn, tool.name);
      }
    }
  }

  /** Family names, in declaration order. */
  familyNames(): string[] {
    return this.families.map((f) => f.name);
  }

  /** Tools visible to a scope (a set of family names; undefined = all). */
  list(scope?: readonly string[]): AnyTool[] {
    const out: AnyTool[] = [];
    for (const fam of this.families) if (!scope || scope.includes(fam.name)) out.push(...fam.tools);
    return out;
  }

  /** Find a tool by exact or provider-safe name, within a scope. */
  get(name: string, scope?: readonly string[]): AnyTool | undefined {
    const entry = this.byName.get(name) ?? this.byName.get(this.byProviderName.get(name) ?? "");
    if (!entry || (scope && !scope.includes(entry.family))) return undefined;
    return entry.tool;
  }

  /** Family of a tool by exact name. */
  familyOf(name: string): string | undefined {
    return this.byName.get(name)?.family;
  }

  /**
   * Validate `rawArgs` and run the tool. Never throws: failures come back as `isError` results
   * with a message the model can act on (internal errors say only that something went wrong).
   */
  async call(tool: AnyTool, rawArgs: unknown, ctx: ToolContext): Promise<CallOutcome> {
    const started = Date.now();
    let outcome: Omit<CallOutcome, "ms">;
    try {
      const args = parseArgs(tool.input, dropNulls(rawArgs));
      const result = await tool.handler(args, ctx);
      outcome = result.isError ? { result, failure: "tool" } : { result };
    } catch (err) {
      outcome = mapError(err, tool, ctx);
    }
    const ms = Date.now() - started;
    ctx.log.info("tool call", { tool: tool.name, ms, ok: !outcome.failure, failure: outcome.failure });
    return { ...outcome, ms };
  }
}

/**
 * Treat `null` object properties as absent: OpenAI strict mode sends null for every optional
 * argument, and the seeds' Python models used `Optional[...] = None` the same way.
 */
export function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (!value || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = dropNulls(v);
  return out;
}

function mapError(err: unknown, tool: AnyTool, ctx: ToolContext): Omit<CallOutcome, "ms"> {
  if (err instanceof ValidationError)
    return { result: errorResult(err.message, { issues: err.issues }), failure: "validation" };
  if (err instanceof UpstreamError) return { result: errorResult(err.message, err.data), failure: "upstream" };
  if (err instanceof ToolError) return { result: errorResult(err.message, err.data), failure: "tool" };
  ctx.log.error("tool crashed", {
    tool: tool.name,
    error: errorMessage(err),
    stack: err instanceof Error ? err.stack : undefined,
  });
  return { result: errorResult(`Internal error in ${tool.name}; the server log has details.`), failure: "internal" };
}
