/**
 * @module A small arithmetic expression evaluator (never `eval`): numbers, + - * / % ^, parentheses,
 * unary minus, constants (pi, e) and functions (sqrt, abs, round, floor, ceil, sin, cos, tan, ln,
 * log, exp, min, max). Recursive descent with a depth limit; errors name the position.
 */

export const MAX_EXPRESSION_LENGTH = 500;
const MAX_DEPTH = 64;

/** A user mistake in the expression; the message says what and where. */
export class ExpressionError extends Error {
  override readonly name = "ExpressionError";
}

type Token =
  | { kind: "num"; value: number; pos: number }
  | { kind: "id"; value: string; pos: number }
  | { kind: "op"; value: string; pos: number };

const FUNCTIONS: Record<string, { arity: [number, number]; fn: (...a: number[]) => number }> = {
  sqrt: {
    arity: [1, 1],
    fn: (x) => {
      if (x < 0) throw new ExpressionError("sqrt of a negative number is not a real number");
      return Math.sqrt(x);
    },
  },
  abs: { arity: [1, 1], fn: Math.abs },
  round: { arity: [1, 2], fn: (x, d = 0) => Math.round(x * 10 ** d) / 10 ** d },
  floor: { arity: [1, 1], fn: Math.floor },
  ceil: { arity: [1, 1], fn: Math.ceil },
  sin: { arity: [1, 1], fn: Math.sin },
  cos: { arity: [1, 1], fn: Math.cos },
  tan: { arity: [1, 1], fn: Math.tan },
  exp: { arity: [1, 1], fn: Math.exp },
  ln: { arity: [1, 1], fn: (x) => log(x, Math.log) },
  log: { arity: [1, 1], fn: (x) => log(x, Math.log10) },
  min: { arity: [1, 32], fn: Math.min },
  max: { arity: [1, 32], fn: Math.max },
};
const CONSTANTS: Record<string, number> = { pi: Math.PI, e: Math.E };

function log(x: number, f: (v: number) => number): number {
  if (x <= 0) throw new ExpressionError("logarithm of a non-positive number is undefined");
  return f(x);
}

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i] ?? "";
    if (/\s/.test(ch)) {
      i++;
    } else if (/[0-9.]/.test(ch)) {
      const m = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(src.slice(i));
      if (!m) throw new ExpressionError(`Malformed number at position ${i + 1}`);
      out.push({ kind: "num", value: Number(m[0]), pos: i });
      i += m[0].length;
    } else if (/[a-zA-Z_]/.test(ch)) {
      const m = /^[a-zA-Z_][a-zA-Z0-9_]*/.exec(src.slice(i));
      const id = m?.[0] ?? ch;
      out.push({ kind: "id", value: id.toLowerCase(), pos: i });
      i += id.length;
    } else if ("+-*/%^(),".includes(ch)) {
      out.push({ kind: "op", value: ch, pos: i });
      i++;
    } else if (ch === "×" || ch === "÷" || ch === "−") {
      out.push({ kind: "op", value: ch === "×" ? "*" : ch === "÷" ? "/" : "-", pos: i });
      i++;
    } else {
      throw new ExpressionError(`Unexpected character '${ch}' at position ${i + 1}`);
    }
  }
  return out;
}

class Parser {
  private i = 0;
  private depth = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): number {
    if (this.tokens.length === 0) throw new ExpressionError("Expression is empty");
    const v = this.sum();
    const t = this.tokens[this.i];
    if (t) throw new ExpressionError(`Unexpected '${t.value}' at position ${t.pos + 1}`);
    return v;
  }

  private peek(op: string): boolean {
    const t = this.tokens[this.i];
    return t?.kind === "op" && t.value === op;
  }

  private sum(): number {
    let v = this.product();
    while (this.peek("+") || this.peek("-")) {
      const op = this.tokens[this.i++]?.value;
      const r = this.product();
      v = op === "+" ? v + r : v - r;
    }
    return v;
  }

  private product(): number {
    let v = this.unary();
    while (this.peek("*") || this.peek("/") || this.peek("%")) {
      const t = this.tokens[this.i++];
      const r = this.unary();
      if ((t?.value === "/" || t?.value === "%") && r === 0) {
        throw new ExpressionError(`Division by zero at position ${(t?.pos ?? 0) + 1}`);
      }
      v = t?.value === "*" ? v * r : t?.value === "/" ? v / r : v % r;
    }
    return v;
  }

  private unary(): number {
    if (this.peek("-") || this.peek("+")) {
      const neg = this.tokens[this.i++]?.value === "-";
      const v = this.nest(() => this.unary());
      return neg ? -v : v;
    }
    return this.power();
  }

  private power(): number {
    const base = this.atom();
    if (this.peek("^")) {
      this.i++;
      const exp = this.nest(() => this.unary()); // right-associative, binds tighter than unary on the left: -2^2 = -4
      return base ** exp;
    }
    return base;
  }

  private nest<T>(f: () => T): T {
    if (++this.depth > MAX_DEPTH)
      throw new ExpressionError(`Expression is nested too deeply (max ${MAX_DEPTH} levels)`);
    try {
      return f();
    } finally {
      this.depth--;
    }
  }

  private expect(op: string, what: string): void {
    const t = this.tokens[this.i];
    if (!(t?.kind === "op" && t.value === op)) {
      throw new ExpressionError(
        t
          ? `Expected ${what} at position ${t.pos + 1}, found '${t.value}'`
          : `Expected ${what} at the end of the expression`,
      );
    }
    this.i++;
  }

  private atom(): number {
    const t = this.tokens[this.i];
    if (!t) throw new ExpressionError("Expression ends where a number was expected");
    if (t.kind === "num") {
      this.i++;
      return t.value;
    }
    if (t.kind === "op" && t.value === "(") {
      this.i++;
      const v = this.nest(() => this.sum());
      this.expect(")", "')'");
      return v;
    }
    if (t.kind === "id") {
      this.i++;
      // Own properties only: "constructor" or "__proto__" must not reach Object.prototype.
      const fn = Object.hasOwn(FUNCTIONS, t.value) ? FUNCTIONS[t.value] : undefined;
      if (fn) {
        this.expect("(", `'(' after ${t.value}`);
        const args = [this.nest(() => this.sum())];
        while (this.peek(",")) {
          this.i++;
          args.push(this.nest(() => this.sum()));
        }
        this.expect(")", "')'");
        const [lo, hi] = fn.arity;
        if (args.length < lo || args.length > hi) {
          throw new ExpressionError(
            `${t.value} takes ${lo === hi ? lo : `${lo} to ${hi}`} argument(s), got ${args.length}`,
          );
        }
        return fn.fn(...args);
      }
      const c = Object.hasOwn(CONSTANTS, t.value) ? CONSTANTS[t.value] : undefined;
      if (c !== undefined) return c;
      const known = [...Object.keys(FUNCTIONS), ...Object.keys(CONSTANTS)].join(", ");
      throw new ExpressionError(`Unknown name '${t.value}' at position ${t.pos + 1}; known: ${known}`);
    }
    throw new ExpressionError(`Unexpected '${t.value}' at position ${t.pos + 1}`);
  }
}

/**
 * Evaluate an arithmetic expression. The result is rounded to 15 significant digits so that
 * binary floating-point noise (0.1 + 0.2) does not show.
 * @throws ExpressionError for bad syntax, division by zero, overlong input, non-finite results.
 * @example evaluate("2+2*5") // 12
 */
export function evaluate(expression: string): number {
  if (expression.length > MAX_EXPRESSION_LENGTH) {
    throw new ExpressionError(`Expression is too long (${expression.length} characters; max ${MAX_EXPRESSION_LENGTH})`);
  }
  const value = new Parser(tokenize(expression)).parse();
  if (!Number.isFinite(value)) throw new ExpressionError("Result is not a finite number (overflow or undefined)");
  const rounded = Number(value.toPrecision(15));
  return Object.is(rounded, -0) ? 0 : rounded;
}
