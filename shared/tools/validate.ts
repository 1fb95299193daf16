/** @module Argument validation with messages that name the field and the problem. */
import type { z } from "zod";
import { ValidationError } from "../errors";

function fieldName(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || "arguments";
}

/** Turn zod issues into "field: problem" lines a model can fix. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((i) => {
    const field = fieldName(i.path);
    if (i.code === "invalid_type" && /received undefined/.test(i.message)) return `${field}: is required`;
    if (i.code === "unrecognized_keys") return `${field}: unknown field(s) ${i.keys.map((k) => `"${k}"`).join(", ")}`;
    return `${field}: ${i.message.replace(/^Invalid input: /, "")}`;
  });
}

/** Parse `raw` with `schema`; throw ValidationError naming every bad field. */
export function parseArgs<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const res = schema.safeParse(raw ?? {});
  if (!res.success) throw new ValidationError(describeIssues(res.error.issues));
  return res.data;
}
