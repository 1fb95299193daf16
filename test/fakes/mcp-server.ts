/**
 * @module A second, independent MCP server for the chat's MCP client tests, built on the SDK's
 * Node transports: Streamable HTTP at /mcp (stateless, JSON answers) and legacy SSE at /sse +
 * /messages. It demands `Authorization: Bearer fake-mcp-token-123` and records every request's
 * header. Each test takes its own instance under `/i/{id}/` (so test files running side by side do
 * not share knobs): `/i/{id}/mcp`, `/i/{id}/sse`. Knobs (POST /i/{id}/__control, merged;
 * /i/{id}/__control/reset clears): `sseOnly` (POST /mcp → 405), `hang` (never answer), `down`
 * (drop connections). GET /i/{id}/__control → {knobs, requests, log}.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";
import type { RunningFake } from "./harness";
import { fakePng } from "./png";

/** The bearer token the fake MCP server accepts. */
export const FAKE_MCP_TOKEN = "fake-mcp-token-123";

const PICTURE = Buffer.from(fakePng(48, 48)).toString("base64");
/** Short enough (< 512 base64 characters) to pass for an ordinary string. */
const SMALL_PICTURE = Buffer.from(fakePng(2, 2)).toString("base64");

interface Knobs {
  sseOnly?: boolean;
  hang?: boolean;
  down?: boolean;
}

function buildServer(): McpServer {
  const server = new McpServer({ name: "fake-remote-mcp", version: "1.0.0" });
  server.registerTool(
    "echo",
    { description: "Echo a text back.", inputSchema: { text: z.string().describe("Text to echo") } },
    async ({ text }) => ({ content: [{ type: "text", text: `echo: ${text}` }] }),
  );
  server.registerTool(
    "picture",
    { description: "A picture of a subject.", inputSchema: { subject: z.string().describe("What to draw") } },
    async ({ subject }) => ({
      content: [
        { type: "text", text: `A picture of ${subject}.` },
        { type: "image", mimeType: "image/png", data: PICTURE },
      ],
    }),
  );
  // Spec 004's return shape taken literally: the images inside JSON, as text and as structuredContent.
  server.registerTool(
    "seed_theme",
    {
      description: "Illustrations of a theme, as spec 004's {illustrations: [{card_name, mimeType, data}]}.",
      inputSchema: { theme: z.string().describe("Theme") },
    },
    async ({ theme }) => {
      const illustrations = [1, 2].map((i) => ({
        card_name: `${theme} ${i}`,
        mimeType: "image/png",
        data: i === 1 ? PICTURE : SMALL_PICTURE,
      }));
      return {
        content: [{ type: "text", text: JSON.stringify({ illustrations }) }],
        structuredContent: { illustrations },
      };
    },
  );
  server.registerTool(
    "slow",
    { description: "Answer after a delay.", inputSchema: { ms: z.number().describe("Delay in ms") } },
    async ({ ms }) => {
      await new Promise((r) => setTimeout(r, ms));
      return { content: [{ type: "text", text: `waited ${ms} ms` }] };
    },
  );
  return server;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

interface Instance {
  knobs: Knobs;
  log: { method: string; path: string; authorization: string | null }[];
}

/** Start the fake MCP server on 127.0.0.1. */
export async function startMcpFake(): Promise<RunningFake> {
  const instances = new Map<string, Instance>();
  const sse = new Map<string, SSEServerTransport>();

  const server = createServer(async (req, res) => {
    const full = new URL(req.url ?? "/", "http://127.0.0.1");
    const m = /^\/i\/([^/]+)(\/.*)$/.exec(full.pathname);
    const id = m?.[1] ?? "default";
    const prefix = m ? `/i/${id}` : "";
    const url = new URL(m?.[2] ?? full.pathname, full);
    url.search = full.search;
    let inst = instances.get(id);
    if (!inst) {
      inst = { knobs: {}, log: [] };
      instances.set(id, inst);
    }
    const body = await readBody(req);
    if (url.pathname.startsWith("/__control")) {
      if (req.method === "POST" && url.pathname === "/__control/reset")
        instances.set(id, (inst = { knobs: {}, log: [] }));
      else if (req.method === "POST") inst.knobs = { ...inst.knobs, ...(JSON.parse(body || "{}") as Knobs) };
      return json(res, 200, { knobs: inst.knobs, requests: inst.log.length, log: inst.log });
    }
    const knobs = inst.knobs;
    inst.log.push({
      method: req.method ?? "GET",
      path: url.pathname,
      authorization: req.headers.authorization ?? null,
    });
    if (knobs.down) return void res.socket?.destroy();
    if (knobs.hang) return;
    if (req.headers.authorization !== `Bearer ${FAKE_MCP_TOKEN}`) {
      res.writeHead(401, { "WWW-Authenticate": 'Bearer realm="fake"', "Content-Type": "application/json" });
      return void res.end(JSON.stringify({ error: "unauthorized" }));
    }
    try {
      if (url.pathname === "/mcp") {
        if (knobs.sseOnly || req.method !== "POST") return json(res, 405, { error: "Method not allowed" });
        const mcp = buildServer();
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        res.on("close", () => {
          void transport.close();
          void mcp.close();
        });
        await mcp.connect(transport);
        return await transport.handleRequest(req, res, JSON.parse(body));
      }
      if (url.pathname === "/sse" && req.method === "GET") {
        const transport = new SSEServerTransport(`${prefix}/messages`, res);
        sse.set(transport.sessionId, transport);
        res.on("close", () => sse.delete(transport.sessionId));
        return await buildServer().connect(transport);
      }
      if (url.pathname === "/messages" && req.method === "POST") {
        const transport = sse.get(url.searchParams.get("sessionId") ?? "");
        if (!transport) return json(res, 404, { error: "unknown session" });
        return await transport.handlePostMessage(req, res, JSON.parse(body));
      }
      return json(res, 404, { error: `no route ${req.method} ${url.pathname}` });
    } catch (err) {
      if (!res.headersSent) json(res, 500, { error: String(err) });
    }
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const lifetime = setTimeout(() => server.close(), 30 * 60_000);
  lifetime.unref();
  return {
    name: "mcp",
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        clearTimeout(lifetime);
        for (const t of sse.values()) void t.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
