import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../workers/index";
import { api, connect } from "../helpers/mcp";

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});
const ACCEPT = { Accept: "application/json, text/event-stream", "Content-Type": "application/json" };

describe("auth and origin checks", () => {
  it("serves /health without a token and without secrets", async () => {
    const res = await api("/health", { token: null });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ status: "ok" });
    expect(text).not.toContain("test-token");
  });

  it("refuses a request without a token with 401 and WWW-Authenticate", async () => {
    for (const path of ["/mcp", "/sse", "/tools", "/core/mcp"]) {
      const res = await api(path, {
        token: null,
        method: path === "/mcp" ? "POST" : "GET",
        headers: ACCEPT,
        body: path === "/mcp" ? INIT : null,
      });
      expect(res.status, path).toBe(401);
      expect(res.headers.get("WWW-Authenticate")).toMatch(/^Bearer realm="mcp"/);
    }
  });

  it("refuses a wrong token, and the SDK client cannot connect with it", async () => {
    const res = await api("/tools", { token: "wrong-token-123" });
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toContain('error="invalid_token"');
    expect(await res.json()).toEqual({ error: "Invalid bearer token." });
    await expect(connect("/mcp", "streamable-http", "wrong-token-123")).rejects.toThrow();
    await expect(connect("/sse", "sse", null)).rejects.toThrow();
  });

  it("limits a scoped token to its families", async () => {
    const client = await connect("/mcp", "streamable-http", "test-token-core");
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names.sort()).toEqual(["calculator", "greet"]);
    await client.close();
    const cards = await api("/tools", { token: "test-token-cards" });
    expect(((await cards.json()) as { tools: { name: string }[] }).tools.map((t) => t.name)).not.toContain("greet");
    const denied = await api("/core/mcp", { token: "test-token-cards", method: "POST", headers: ACCEPT, body: INIT });
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({ error: 'This token may not use the "core" tools.' });
    const rest = await api("/tools/greet", { token: "test-token-cards", method: "POST", json: { name: "x" } });
    expect(rest.status).toBe(404);
  });

  it("refuses a browser request from a foreign Origin (DNS rebinding) and allows its own", async () => {
    const foreign = await api("/mcp", {
      method: "POST",
      headers: { ...ACCEPT, Origin: "https://evil.example" },
      body: INIT,
    });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toEqual({
      error: "Origin https://evil.example is not allowed. Add it to ALLOWED_ORIGINS if this is your own web client.",
    });
    const own = await api("/mcp", { method: "POST", headers: { ...ACCEPT, Origin: "https://mcp.test" }, body: INIT });
    expect(own.status).toBe(200);
    await own.text();
  });

  it("refuses a foreign Origin on the SSE endpoints too (/sse, /sse/message, /{family}/sse)", async () => {
    const evil = { Origin: "https://evil.example" };
    const sse = await api("/sse", { headers: { ...evil, Accept: "text/event-stream" } });
    expect(sse.status).toBe(403);
    const family = await api("/anki/sse", { headers: { ...evil, Accept: "text/event-stream" } });
    expect(family.status).toBe(403);
    const message = await api("/sse/message?sessionId=any", {
      method: "POST",
      headers: { ...evil, "Content-Type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(message.status).toBe(403);
    expect(await message.json()).toEqual({
      error: "Origin https://evil.example is not allowed. Add it to ALLOWED_ORIGINS if this is your own web client.",
    });
  });

  it("keeps a scoped token to its families on POST /invoke and /tools/{name}, under either name spelling", async () => {
    for (const name of ["anki.model_info", "anki_model_info"]) {
      const invoke = await api("/invoke", { token: "test-token-core", method: "POST", json: { name, arguments: {} } });
      expect(invoke.status, name).toBe(404);
      expect(await invoke.json()).toEqual({ error: `Unknown tool: ${name}. GET /tools lists the available tools.` });
      const rest = await api(`/tools/${name}`, { token: "test-token-core", method: "POST", json: {} });
      expect(rest.status, name).toBe(404);
    }
    const own = await api("/invoke", {
      token: "test-token-core",
      method: "POST",
      json: { name: "greet", arguments: { name: "Ян" } },
    });
    expect(own.status).toBe(200);
    const openai = await api("/tools?format=openai", { token: "test-token-core" });
    const names = ((await openai.json()) as { tools: { function: { name: string } }[] }).tools.map(
      (t) => t.function.name,
    );
    expect(names.sort()).toEqual(["calculator", "greet"]);
  });

  it("lets a web client at an ALLOWED_ORIGINS origin through CORS: preflight without a token, then the call", async () => {
    const send = async (req: Request) => {
      const ctx = createExecutionContext();
      const res = await worker.fetch(req, { ...env, ALLOWED_ORIGINS: "https://app.example" }, ctx);
      await waitOnExecutionContext(ctx);
      return res;
    };
    const preflight = (origin: string) =>
      send(
        new Request("https://mcp.test/mcp", {
          method: "OPTIONS",
          headers: {
            Origin: origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization,content-type,mcp-protocol-version",
          },
        }),
      );
    const ok = await preflight("https://app.example");
    expect(ok.status).toBe(204);
    expect(ok.headers.get("Access-Control-Allow-Origin")).toBe("https://app.example");
    expect(ok.headers.get("Access-Control-Allow-Headers")).toMatch(/Authorization.*mcp-protocol-version/);
    expect(ok.headers.get("Access-Control-Allow-Methods")).toMatch(/POST/);

    const call = await send(
      new Request("https://mcp.test/mcp", {
        method: "POST",
        headers: { ...ACCEPT, Origin: "https://app.example", Authorization: "Bearer test-token-all" },
        body: INIT,
      }),
    );
    expect(call.status).toBe(200);
    expect(call.headers.get("Access-Control-Allow-Origin")).toBe("https://app.example");
    expect(call.headers.get("Access-Control-Expose-Headers")).toMatch(/mcp-session-id/);
    expect(call.headers.get("mcp-session-id")).toBeTruthy();
    await call.text();

    const foreign = await preflight("https://evil.example");
    expect(foreign.headers.get("Access-Control-Allow-Origin")).toBeNull();
  });

  it("fails closed when no token is configured", async () => {
    const ctx = createExecutionContext();
    const res = await worker.fetch(
      new Request("https://mcp.test/tools", { headers: { Authorization: "Bearer anything-at-all" } }),
      { ...env, MCP_AUTH_TOKEN: "" },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: string }).error).toMatch(/no MCP_AUTH_TOKEN configured/);
  });

  it("reports a broken setting by name, without secrets", async () => {
    const ctx = createExecutionContext();
    const res = await worker.fetch(
      new Request("https://mcp.test/tools", { headers: { Authorization: "Bearer test-token-all" } }),
      { ...env, QDRANT_URL: "not a url" },
      ctx,
    );
    expect(res.status).toBe(500);
    const body = (await res.json()) as { error: string };
    expect(body.error).toMatch(/QDRANT_URL: must be an http\(s\) URL/);
    expect(body.error).not.toContain("test-token");
  });
});
