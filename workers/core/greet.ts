/** @module `greet` (spec 000): a ping that proves the connection and the token work. */
import { z } from "zod";
import { defineTool } from "../../shared/tools/define-tool";
import { textResult } from "../../shared/tools/results";

export const greet = defineTool({
  name: "greet",
  title: "Greet",
  description: "Test ping: checks the connection to this MCP server. Returns a greeting.",
  input: z.strictObject({
    name: z.string().trim().min(1, "must not be empty").describe("User name, e.g. Алиса"),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async ({ name }) => textResult(`Привет, ${name}! Я твой MCP-сервер.`),
});
