/**
 * What a client receives besides results: progress notifications (only when it sent a progressToken)
 * and tool log messages (notifications/message) that honour logging/setLevel and carry no secrets.
 * The real SDK Client against the server builder, over the SDK's in-memory transport, with a tool
 * made for the purpose (the Worker's own tools are covered over HTTP and SSE elsewhere).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { loadConfig } from "../../shared/config";
import { createLogger } from "../../shared/log";
import { defineFamily, defineTool } from "../../shared/tools/define-tool";
import { createToolServer } from "../../shared/tools/mcp-server";
import { ToolRegistry } from "../../shared/tools/registry";
import { textResult } from "../../shared/tools/results";

const KEY = "AIza-super-secret-key";

const slow = defineTool({
  name: "demo.slow",
  title: "Slow",
  description: "Reports progress and a warning.",
  input: z.strictObject({ steps: z.number().int().min(1).max(5).describe("How many steps") }),
  annotations: { readOnlyHint: true },
  handler: async ({ steps }, ctx) => {
    ctx.log.warn("upstream was slow", { answer: `echoed key=${KEY}`, apiKey: KEY });
    for (let i = 1; i <= steps; i++) await ctx.progress({ progress: i, total: steps, message: `step ${i}` });
    return textResult("done");
  },
});

async function connectDemo() {
  const config = loadConfig({ MCP_AUTH_TOKEN: "demo-token-1", GEMINI_API_KEY: KEY });
  const server = createToolServer(new ToolRegistry([defineFamily("demo", [slow])]), undefined, () => ({
    config,
    bindings: {} as Env,
    fetch,
    log: createLogger("error"),
    baseUrl: "https://mcp.test",
    waitUntil: () => undefined,
  }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test-client", version: "1.0.0" });
  const logs: { level: string; logger?: string; data: unknown }[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
  const errors: Error[] = [];
  client.onerror = (e) => void errors.push(e);
  await client.connect(clientSide);
  return { client, logs, errors };
}

describe("MCP notifications", () => {
  it("sends notifications/progress for a call with a progressToken, in order", async () => {
    const { client } = await connectDemo();
    const seen: { progress: number; total?: number; message?: string }[] = [];
    const res = await client.callTool({ name: "demo.slow", arguments: { steps: 3 } }, undefined, {
      onprogress: (p) => seen.push(p),
    });
    expect(res.content).toEqual([{ type: "text", text: "done" }]);
    expect(seen).toEqual([
      { progress: 1, total: 3, message: "step 1" },
      { progress: 2, total: 3, message: "step 2" },
      { progress: 3, total: 3, message: "step 3" },
    ]);
    await client.close();
  });

  it("sends no progress when the call carried no progressToken", async () => {
    const { client, errors } = await connectDemo();
    await client.callTool({ name: "demo.slow", arguments: { steps: 2 } });
    // An unrequested progress notification would reach the client as an unknown-token error.
    expect(errors.map((e) => e.message)).toEqual([]);
    await client.close();
  });

  it("forwards a tool's warning as notifications/message, with secrets redacted", async () => {
    const { client, logs } = await connectDemo();
    await client.callTool({ name: "demo.slow", arguments: { steps: 1 } });
    expect(logs).toEqual([
      {
        level: "warning",
        logger: "demo.slow",
        data: { msg: "upstream was slow", answer: "echoed key=[redacted]", apiKey: "[redacted]" },
      },
    ]);
    await client.close();
  });

  it("honours logging/setLevel: above the level, the warning is not sent", async () => {
    const { client, logs } = await connectDemo();
    await client.setLoggingLevel("error");
    await client.callTool({ name: "demo.slow", arguments: { steps: 1 } });
    expect(logs).toEqual([]);
    await client.setLoggingLevel("debug");
    await client.callTool({ name: "demo.slow", arguments: { steps: 1 } });
    expect(logs.map((l) => l.level)).toEqual(["warning"]);
    await client.close();
  });
});
