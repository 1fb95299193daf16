import { describe, expect, it } from "vitest";
import { connect } from "../helpers/mcp";

describe("smoke", () => {
  it.each(["streamable-http", "sse"] as const)("lists and calls greet over %s", async (transport) => {
    const client = await connect(transport === "sse" ? "/sse" : "/mcp", transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("greet");
    const res = await client.callTool({ name: "greet", arguments: { name: "Алиса" } });
    expect(res.content).toEqual([{ type: "text", text: "Привет, Алиса! Я твой MCP-сервер." }]);
    await client.close();
  });
});
