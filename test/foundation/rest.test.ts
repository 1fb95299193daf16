import { describe, expect, it } from "vitest";
import { api, connect } from "../helpers/mcp";

describe("REST views of the registry", () => {
  it("POST /tools/{name} and POST /invoke give the same result as MCP tools/call", async () => {
    const client = await connect("/mcp");
    const viaMcp = await client.callTool({ name: "calculator", arguments: { expression: "(1+2)^2" } });
    await client.close();
    const viaTools = await (await api("/tools/calculator", { method: "POST", json: { expression: "(1+2)^2" } })).json();
    const viaInvoke = await (
      await api("/invoke", { method: "POST", json: { name: "calculator", arguments: { expression: "(1+2)^2" } } })
    ).json();
    const viaOpenAi = await (
      await api("/invoke", {
        method: "POST",
        json: { name: "calculator", arguments: JSON.stringify({ expression: "(1+2)^2" }) },
      })
    ).json();
    expect(viaTools).toEqual(viaMcp);
    expect(viaInvoke).toEqual(viaMcp);
    expect(viaOpenAi).toEqual(viaMcp);
  });

  it("greets over REST exactly as spec 000", async () => {
    const res = await api("/tools/greet", { method: "POST", json: { name: "Алиса" } });
    expect(await res.json()).toEqual({ content: [{ type: "text", text: "Привет, Алиса! Я твой MCP-сервер." }] });
  });

  it("names the field and the problem when arguments are invalid", async () => {
    const res = await api("/tools/greet", { method: "POST", json: { name: 42, extra: true } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; isError: boolean; structuredContent: { issues: string[] } };
    expect(body.isError).toBe(true);
    expect(body.structuredContent.issues).toEqual([
      "name: expected string, received number",
      'arguments: unknown field(s) "extra"',
    ]);
    expect(body.error).toBe(
      'Invalid arguments: name: expected string, received number; arguments: unknown field(s) "extra"',
    );
  });

  it("treats null arguments as absent (OpenAI strict mode sends null for optional fields)", async () => {
    const res = await api("/invoke", { method: "POST", json: { name: "greet", arguments: '{"name":"Боб"}' } });
    expect(res.status).toBe(200);
    const missing = await api("/invoke", { method: "POST", json: { name: "greet", arguments: { name: null } } });
    expect(((await missing.json()) as { error: string }).error).toBe("Invalid arguments: name: is required");
  });

  it("maps tool failures to HTTP statuses and explains bad requests", async () => {
    const tool = await api("/tools/calculator", { method: "POST", json: { expression: "2/0" } });
    expect(tool.status).toBe(422);
    expect(((await tool.json()) as { error: string }).error).toMatch(/Division by zero/);
    const unknown = await api("/tools/nope", { method: "POST", json: {} });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: "Unknown tool: nope. GET /tools lists the available tools." });
    const notJson = await api("/invoke", {
      method: "POST",
      body: "{oops",
      headers: { "Content-Type": "application/json" },
    });
    expect(notJson.status).toBe(400);
    const badArgs = await api("/invoke", { method: "POST", json: { name: "greet", arguments: "{not json" } });
    expect(((await badArgs.json()) as { error: string }).error).toMatch(/"arguments" is a string but not valid JSON/);
    const noName = await api("/invoke", { method: "POST", json: { arguments: {} } });
    expect(((await noName.json()) as { error: string }).error).toBe('Field "name" is required: the tool to call.');
    const fmt = await api("/tools?format=xml");
    expect(fmt.status).toBe(400);
  });

  it("rejects oversized bodies", async () => {
    const res = await api("/invoke", {
      method: "POST",
      json: { name: "greet", arguments: { name: "x".repeat(9 * 1024 * 1024) } },
    });
    expect(res.status).toBe(413);
  });
});
