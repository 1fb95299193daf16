import { describe, expect, it } from "vitest";
import { ExpressionError, evaluate } from "../../workers/core/expression";

describe("calculator expression parser", () => {
  it.each([
    ["2+2*5", 12],
    ["(2+2)*5", 20],
    ["10 / 4", 2.5],
    ["7 % 3", 1],
    ["2^10", 1024],
    ["2^3^2", 512],
    ["-2^2", -4],
    ["(-2)^2", 4],
    ["2^-1", 0.5],
    ["--3", 3],
    ["-(4 - 6)", 2],
    ["0.1 + 0.2", 0.3],
    [".5 * 4", 2],
    ["1e3 + 1", 1001],
    ["sqrt(16) + abs(-3)", 7],
    ["round(2.5)", 3],
    ["round(3.14159, 2)", 3.14],
    ["floor(-1.5) + ceil(1.2)", 0],
    ["max(1, 7, 3) - min(4, 2)", 5],
    ["2 * pi", 6.28318530717959],
    ["ln(e)", 1],
    ["log(1000)", 3],
    ["3 × 4 ÷ 2 − 1", 5],
  ])("%s = %d", (expr, expected) => {
    expect(evaluate(expr)).toBe(expected);
  });

  it.each([
    ["1/0", /Division by zero at position 2/],
    ["5 % 0", /Division by zero/],
    ["2 +", /ends where a number was expected/],
    ["(1 + 2", /Expected '\)' at the end/],
    ["1 + 2)", /Unexpected '\)' at position 6/],
    ["2 $ 3", /Unexpected character '\$' at position 3/],
    ["foo(2)", /Unknown name 'foo'/],
    ["sqrt(-1)", /negative number/],
    ["sqrt(1, 2)", /takes 1 argument/],
    ["", /empty/],
    ["10^400", /not a finite number/],
    ["1.2.3", /Unexpected/],
  ])("rejects %j with a clear error", (expr, message) => {
    expect(() => evaluate(expr)).toThrow(ExpressionError);
    expect(() => evaluate(expr)).toThrow(message);
  });

  it("refuses overlong input and deep nesting instead of overflowing the stack", () => {
    expect(() => evaluate("1+".repeat(300) + "1")).toThrow(/too long/);
    expect(() => evaluate("(".repeat(100) + "1" + ")".repeat(100))).toThrow(/nested too deeply/);
    expect(() => evaluate("-".repeat(200) + "1")).toThrow(/nested too deeply/);
  });

  it("never evaluates JavaScript", () => {
    expect(() => evaluate("constructor")).toThrow(/Unknown name/);
    expect(() => evaluate("__proto__(1)")).toThrow(/Unknown name/);
    expect(() => evaluate("tostring(1)")).toThrow(/Unknown name/);
    expect(() => evaluate("process.exit(1)")).toThrow(ExpressionError);
  });
});
