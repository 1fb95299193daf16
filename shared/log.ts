/** @module Structured JSON-line logging with levels; secrets are redacted before anything is written. */

export type LogLevel = "debug" | "info" | "warn" | "error";
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** A minimal structured logger. */
export interface Logger {
  debug(msg: string, data?: Record<string, unknown>): void;
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
}

const SECRET_KEY = /(token|secret|key|authorization|password|cookie)/i;

/** Replace values of secret-looking keys, and any of the given secret strings, by "[redacted]". */
export function redact(value: unknown, secrets: readonly string[] = []): unknown {
  if (typeof value === "string") {
    let out = value;
    for (const s of secrets) if (s.length >= 4) out = out.split(s).join("[redacted]");
    return out;
  }
  if (Array.isArray(value)) return value.map((v) => redact(v, secrets));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = SECRET_KEY.test(k) && typeof v === "string" ? "[redacted]" : redact(v, secrets);
    }
    return out;
  }
  return value;
}

/** Create a logger writing JSON lines to the console at or above `level`. */
export function createLogger(
  level: LogLevel = "info",
  base: Record<string, unknown> = {},
  secrets: readonly string[] = [],
): Logger {
  const write = (lvl: LogLevel, msg: string, data?: Record<string, unknown>) => {
    if (ORDER[lvl] < ORDER[level]) return;
    const line = JSON.stringify(redact({ level: lvl, msg, ...base, ...data }, secrets));
    if (lvl === "error") console.error(line);
    else if (lvl === "warn") console.warn(line);
    else console.log(line);
  };
  return {
    debug: (m, d) => write("debug", m, d),
    info: (m, d) => write("info", m, d),
    warn: (m, d) => write("warn", m, d),
    error: (m, d) => write("error", m, d),
  };
}
