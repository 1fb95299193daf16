/**
 * @module The MCP session Durable Object. Thin on purpose: it builds an SDK Server from the
 * registry for the session's scope; everything else lives in shared/tools. Swapping to
 * `createMcpHandler` later touches only this folder.
 */
import { McpAgent } from "agents/mcp";
import { loadConfig, secretsOf } from "../../shared/config";
import { createLogger } from "../../shared/log";
import { createToolServer } from "../../shared/tools/mcp-server";
import { registry } from "../registry";

/** Per-session properties, set by the Worker when the session is created (never by the client). */
export type SessionProps = {
  /** Families this session may use (route ∩ token grant); undefined = all. */
  scope?: string[];
  /** Public origin the client used, for links in results. */
  baseUrl: string;
};

/** One MCP session (Streamable HTTP or SSE), serving the registry's tools within its scope. */
export class ToolsMcp extends McpAgent<Env, unknown, SessionProps> {
  server = createToolServer(registry, undefined, () => this.contextBase());

  override async init(): Promise<void> {
    // The scope is only known once props arrive, so rebuild the server for it.
    this.server = createToolServer(registry, this.props?.scope, () => this.contextBase());
  }

  /**
   * A message for an SSE session with no open stream (an unknown id, or a stream that closed) could
   * never be answered; agents would still say 202 and the client would wait until it times out.
   * Refusing it (400 "Session not found") tells the client at once to open a new stream.
   */
  override async onSSEMcpMessage(
    sessionId: string,
    messageBody: unknown,
    extraInfo?: Parameters<McpAgent["onSSEMcpMessage"]>[2],
  ): Promise<Error | null> {
    if ([...this.getConnections()].length === 0) {
      return new Error("Session not found: open a new SSE stream (GET /sse) and use the endpoint it sends.");
    }
    return super.onSSEMcpMessage(sessionId, messageBody, extraInfo);
  }

  private contextBase() {
    const config = loadConfig(this.env);
    return {
      config,
      bindings: this.env,
      fetch: (input: RequestInfo | URL, init?: RequestInit) => fetch(input, init),
      log: createLogger(config.LOG_LEVEL, { session: this.name }, secretsOf(config)),
      baseUrl: this.props?.baseUrl ?? "",
      waitUntil: (p: Promise<unknown>) => this.ctx.waitUntil(p),
    };
  }
}
