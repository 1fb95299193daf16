/** @module `calculator` (spec 003's example): evaluates an arithmetic expression safely. */
import { z } from "zod";
import { ToolError } from "../../shared/errors";
import { defineTool } from "../../shared/tools/define-tool";
import { dataResult } from "../../shared/tools/results";
import { ExpressionError, MAX_EXPRESSION_LENGTH, evaluate } from "./expression";

export const calculator = defineTool({
  name: "calculator",
  title: "Calculator",
  description:
    "Вычисляет математическое выражение. Используйте для любых математических расчетов. Supports + - * / % ^, parentheses, pi, e, sqrt, abs, round(x[,digits]), floor, ceil, sin, cos, tan, ln, log, exp, min, max. Returns the number.",
  input: z.strictObject({
    expression: z
      .string()
      .max(MAX_EXPRESSION_LENGTH, `must be at most ${MAX_EXPRESSION_LENGTH} characters`)
      .describe('Математическое выражение в виде строки (например, "2+2*5").'),
  }),
  output: z.object({ expression: z.string(), result: z.number() }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: async ({ expression }) => {
    try {
      const result = evaluate(expression);
      return dataResult({ expression, result }, String(result));
    } catch (err) {
      if (err instanceof ExpressionError) throw new ToolError(`Cannot evaluate "${expression}": ${err.message}.`);
      throw err;
    }
  },
});
