import { describe, expect, it } from "vitest";
import { unwrapSessionId, wrapSessionId } from "../../workers/mcp/session-binding";
import { api, connect } from "../helpers/mcp";

const ACCEPT = { Accept: "application/json, text/event-stream", "Content-Type": "application/json" };
const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});
const LIST = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });

describe("an MCP session belongs to the token that created it", () => {
  it("binds ids to the token: only the same token unwraps them", async () => {
    const id = await wrapSessionId("abc123", "token-one-123");
    expect(id).toMatch(/^abc123\.[0-9a-f]{32}$/);
    expect(await unwrapSessionId(id, "token-one-123")).toBe("abc123");
    expect(await unwrapSessionId(id, "token-two-456")).toBeUndefined();
    expect(await unwrapSessionId("abc123", "token-one-123")).toBeUndefined();
    expect(await unwrapSessionId(`abc124.${id.split(".")[1]}`, "token-one-123")).toBeUndefined();
  });

  it("Streamable HTTP: another valid token cannot use the session, the owner can", async () => {
    const init = await api("/mcp", { method: "POST", headers: ACCEPT, body: INIT });
    const sid = init.headers.get("mcp-session-id") ?? "";
    await init.text();
    expect(sid).toMatch(/\.[0-9a-f]{32}$/);
    const headers = { ...ACCEPT, "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18" };

    const other = await api("/mcp", { method: "POST", headers, body: LIST, token: "test-token-core" });
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32001, message: "Session not found" },
    });
    const otherDelete = await api("/mcp", {
      method: "DELETE",
      headers: { "mcp-session-id": sid },
      token: "test-token-core",
    });
    expect(otherDelete.status).toBe(404);

    const own = await api("/mcp", { method: "POST", headers, body: LIST });
    expect(own.status).toBe(200);
    expect(await own.text()).toContain('"calculator"');
    const raw = sid.slice(0, sid.lastIndexOf("."));
    const bare = await api("/mcp", { method: "POST", headers: { ...headers, "mcp-session-id": raw }, body: LIST });
    expect(bare.status).toBe(404);
  });

  it("legacy SSE: the endpoint carries a bound id, and another token's messages are refused", async () => {
    const client = await connect("/sse", "sse");
    const res = await api("/sse", { headers: { Accept: "text/event-stream" } });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    const sessionId = /sessionId=([^\s&]+)/.exec(first)?.[1] ?? "";
    expect(sessionId).toMatch(/^[0-9a-f]{64}\.[0-9a-f]{32}$/);
    const other = await api(`/sse/message?sessionId=${sessionId}`, {
      method: "POST",
      body: LIST,
      headers: { "Content-Type": "application/json" },
      token: "test-token-core",
    });
    expect(other.status).toBe(404);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });
});
