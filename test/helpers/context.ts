/** A real ToolContext for calling a tool's handler (through the registry) with settings overridden per test. */
import { env } from "cloudflare:workers";
import { loadConfig } from "../../shared/config";
import { createLogger } from "../../shared/log";
import type { Progress, ToolContext } from "../../shared/tools/context";

/** Build a context from the test Worker's env, with `vars` replacing settings (e.g. an API key). */
export function toolContext(
  vars: Record<string, string> = {},
  extra: Partial<ToolContext> = {},
): ToolContext & { progressLog: Progress[] } {
  const progressLog: Progress[] = [];
  const merged = { ...env, ...vars } as Env;
  return {
    config: loadConfig(merged),
    bindings: merged,
    fetch: (input, init) => fetch(input, init),
    log: createLogger("error"),
    signal: new AbortController().signal,
    progress: async (p) => {
      progressLog.push(p);
    },
    baseUrl: "https://mcp.test",
    waitUntil: () => undefined,
    ...extra,
    progressLog,
  };
}
