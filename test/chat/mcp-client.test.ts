import { describe, expect, it } from "vitest";
import { McpClient, McpConnectionError } from "../../workers/chat/mcp-client";
import { FAKE_MCP_TOKEN } from "../fakes/mcp-server";
import { remoteMcp } from "../helpers/chat";
import { BASE, TOKEN, workerFetch } from "../helpers/mcp";

describe("McpClient against another remote MCP server (127.0.0.1 fake)", () => {
  it("connects over Streamable HTTP, lists and calls tools, with the bearer token on every request", async () => {
    const remote = await remoteMcp();
    const client = new McpClient(remote.url, FAKE_MCP_TOKEN);
    await client.connect();
    expect(client.transport).toBe("streamable-http");
    expect((await client.listTools()).map((t) => t.name).sort()).toEqual(["echo", "picture", "seed_theme", "slow"]);
    const res = await client.executeTool("picture", { subject: "a dragon" });
    expect(res.content).toEqual([
      { type: "text", text: "A picture of a dragon." },
      { type: "image", mimeType: "image/png", data: expect.any(String) },
    ]);
    await client.disconnect();
    const log = await remote.log();
    expect(log.length).toBeGreaterThanOrEqual(4);
    expect(log.every((r) => r.authorization === `Bearer ${FAKE_MCP_TOKEN}`)).toBe(true);
  });

  it("falls back to SSE when the server refuses Streamable HTTP, still sending the token", async () => {
    const remote = await remoteMcp({ sseOnly: true });
    const client = new McpClient(remote.url, FAKE_MCP_TOKEN);
    await client.connect();
    expect(client.transport).toBe("sse");
    const res = await client.executeTool("echo", { text: "hi" });
    expect(res.content).toEqual([{ type: "text", text: "echo: hi" }]);
    await client.disconnect();
    const log = await remote.log();
    expect(log.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(["POST /mcp", "GET /sse", "POST /messages"]),
    );
    expect(log.every((r) => r.authorization === `Bearer ${FAKE_MCP_TOKEN}`)).toBe(true);
  });

  it("uses SSE directly when told to", async () => {
    const remote = await remoteMcp();
    const client = new McpClient(remote.sseUrl, FAKE_MCP_TOKEN, { transport: "sse" });
    await client.connect();
    expect(client.transport).toBe("sse");
    expect((await client.listTools()).length).toBe(4);
    await client.disconnect();
  });

  it("reports a refused token without retrying", async () => {
    const remote = await remoteMcp();
    const client = new McpClient(remote.url, "wrong-token-000");
    const err = await client.connect().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpConnectionError);
    expect((err as McpConnectionError).kind).toBe("rejected");
    expect((err as Error).message).toMatch(/refused the bearer token \(HTTP 401\)/);
    expect((err as Error).message).not.toContain("wrong-token-000");
    expect((await remote.log()).length).toBe(1);
  });

  it("retries a server that is down at most 3 times, with backoff, then says it is unreachable", async () => {
    const remote = await remoteMcp({ down: true });
    const client = new McpClient(remote.url, FAKE_MCP_TOKEN, { baseDelayMs: 20 });
    const err = await client.connect().catch((e: unknown) => e);
    expect((err as McpConnectionError).kind).toBe("unreachable");
    expect((err as Error).message).toMatch(/not reachable \(no connection, 4 attempts\)/);
    expect((await remote.log()).length).toBe(4);
  });

  it("gives up on a server that does not answer after the timeout", async () => {
    const remote = await remoteMcp({ hang: true });
    const client = new McpClient(remote.url, FAKE_MCP_TOKEN, { timeoutMs: 300 });
    const started = Date.now();
    const err = await client.connect().catch((e: unknown) => e);
    expect((err as McpConnectionError).kind).toBe("timeout");
    expect((err as Error).message).toMatch(/did not answer within 0\.3 s/);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe("McpClient against this Worker", () => {
  it("puts the bearer token on every request, including the session's DELETE", async () => {
    const seen: { method: string; auth: string | null }[] = [];
    const client = new McpClient(`${BASE}/mcp`, TOKEN, {
      fetch: (input, init) => {
        const req = new Request(input, init);
        seen.push({ method: req.method, auth: req.headers.get("Authorization") });
        return workerFetch(req);
      },
    });
    expect((await client.listTools()).map((t) => t.name)).toContain("greet");
    const res = await client.executeTool("greet", { name: "Kaiba" });
    expect(res.content).toEqual([{ type: "text", text: "Привет, Kaiba! Я твой MCP-сервер." }]);
    await client.disconnect();
    expect(seen.map((s) => s.method)).toEqual(expect.arrayContaining(["POST", "DELETE"]));
    expect(seen.every((s) => s.auth === `Bearer ${TOKEN}`)).toBe(true);
  });

  it("turns an unknown tool into a protocol error, not a connection error", async () => {
    const client = new McpClient(`${BASE}/mcp`, TOKEN, { fetch: workerFetch });
    const err = await client.executeTool("no_such_tool", {}).then(
      (r) => r,
      (e: unknown) => e,
    );
    expect(err).not.toBeInstanceOf(McpConnectionError);
    await client.disconnect();
  });
});
