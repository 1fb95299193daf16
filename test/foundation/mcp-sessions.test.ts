import { describe, expect, it } from "vitest";
import { wrapSessionId } from "../../workers/mcp/session-binding";
import { registry } from "../../workers/registry";
import { TOKEN, api, connect } from "../helpers/mcp";

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};
const ACCEPT = { Accept: "application/json, text/event-stream", "Content-Type": "application/json" };

async function rpc(sessionId: string, body: unknown) {
  return api("/mcp", {
    method: "POST",
    headers: { ...ACCEPT, "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" },
    body: JSON.stringify(body),
  });
}

describe("MCP over Streamable HTTP and SSE", () => {
  for (const transport of ["streamable-http", "sse"] as const) {
    const path = transport === "sse" ? "/sse" : "/mcp";

    it(`lists and calls greet and calculator over ${transport} with the token`, async () => {
      const client = await connect(path, transport);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["greet", "calculator"]));
      expect(await client.callTool({ name: "greet", arguments: { name: "Алиса" } })).toEqual({
        content: [{ type: "text", text: "Привет, Алиса! Я твой MCP-сервер." }],
      });
      const calc = await client.callTool({ name: "calculator", arguments: { expression: "2+2*5" } });
      expect(calc.structuredContent).toEqual({ expression: "2+2*5", result: 12 });
      expect(calc.content).toEqual([{ type: "text", text: "12" }]);
      await client.ping();
      await client.close();
    });

    it(`reports tool errors as isError results over ${transport}`, async () => {
      const client = await connect(path, transport);
      const bad = await client.callTool({ name: "calculator", arguments: { expression: "1/0" } });
      expect(bad.isError).toBe(true);
      expect(bad.content).toEqual([{ type: "text", text: 'Cannot evaluate "1/0": Division by zero at position 2.' }]);
      const invalid = await client.callTool({ name: "greet", arguments: {} });
      expect(invalid.isError).toBe(true);
      expect(invalid.content).toEqual([{ type: "text", text: "Invalid arguments: name: is required" }]);
      await client.close();
    });
  }

  it("declares its capabilities honestly", async () => {
    const client = await connect("/mcp");
    const caps = client.getServerCapabilities();
    expect(caps?.tools).toEqual({});
    expect(caps?.logging).toEqual({});
    await client.setLoggingLevel("warning");
    expect(client.getServerVersion()?.name).toBe("mcp-tools-worker");
    await client.close();
  });

  it("keeps the session between requests, ends it on DELETE, and answers 404 for an unknown session", async () => {
    const init = await api("/mcp", { method: "POST", headers: ACCEPT, body: JSON.stringify(INIT) });
    expect(init.status).toBe(200);
    const sid = init.headers.get("mcp-session-id") ?? "";
    expect(sid).not.toBe("");
    await init.text();
    await (await rpc(sid, { jsonrpc: "2.0", method: "notifications/initialized" })).text();

    const list = await rpc(sid, { jsonrpc: "2.0", id: 2, method: "tools/list" });
    expect(list.status).toBe(200);
    expect(await list.text()).toContain('"greet"');

    const del = await api("/mcp", { method: "DELETE", headers: { "mcp-session-id": sid } });
    expect(del.status).toBe(204);
    const after = await rpc(sid, { jsonrpc: "2.0", id: 3, method: "tools/list" });
    expect(after.status).toBe(404);

    const unknown = await rpc("no-such-session", { jsonrpc: "2.0", id: 4, method: "tools/list" });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32001 } });
  });

  it("refuses a message for an SSE session that has no open stream, instead of accepting it into the void", async () => {
    const bound = await wrapSessionId(crypto.randomUUID(), TOKEN);
    const res = await api(`/sse/message?sessionId=${bound}`, {
      method: "POST",
      json: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/^Session not found: open a new SSE stream/);
  });

  it("serves every family of ARCHITECTURE §1 on its own route", () => {
    expect(registry.familyNames()).toEqual(["core", "anki", "search", "rag", "comfy", "cards"]);
  });

  for (const family of registry.families) {
    it(`limits /${family.name}/mcp and /${family.name}/sse to the ${family.name} tools`, async () => {
      const expected = family.tools.map((t) => t.name).sort();
      expect(expected.length).toBeGreaterThan(0);
      for (const t of ["streamable-http", "sse"] as const) {
        const client = await connect(`/${family.name}/${t === "sse" ? "sse" : "mcp"}`, t);
        expect((await client.listTools()).tools.map((x) => x.name).sort(), t).toEqual(expected);
        await client.ping();
        await client.close();
      }
    });
  }
});
