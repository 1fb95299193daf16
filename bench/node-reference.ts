/** The MCP SDK's own plain Node Streamable HTTP server with the same greet tool: the bench's yardstick. */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

function newServer(): McpServer {
  const server = new McpServer({ name: "node-reference", version: "1.0.0" });
  server.registerTool(
    "greet",
    { description: "Test ping", inputSchema: { name: z.string().describe("User name") } },
    async ({ name }) => ({ content: [{ type: "text", text: `Привет, ${name}! Я твой MCP-сервер.` }] }),
  );
  return server;
}

/** Start the reference server on 127.0.0.1; sessions live in memory. */
export async function startNodeReference(): Promise<{ url: string; client(): Promise<Client>; stop(): Promise<void> }> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const sid = req.headers["mcp-session-id"];
    let transport = typeof sid === "string" ? transports.get(sid) : undefined;
    if (!transport) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (id) => {
          if (transport) transports.set(id, transport);
        },
      });
      transport.onclose = () => {
        if (transport?.sessionId) transports.delete(transport.sessionId);
      };
      await newServer().connect(transport);
    }
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  return {
    url,
    client: async () => {
      const c = new Client({ name: "bench", version: "1.0.0" });
      await c.connect(new StreamableHTTPClientTransport(new URL(url)));
      return c;
    },
    stop: () =>
      new Promise<void>((r) => {
        http.closeAllConnections();
        http.close(() => r());
      }),
  };
}
