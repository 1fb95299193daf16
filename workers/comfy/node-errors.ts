/**
 * @module ComfyUI's 400 answer to POST /prompt, turned into one message that names the node, the
 * input, the reason and (when a tool field sets that input) the argument to change.
 */

interface ComfyError {
  type?: string;
  message?: string;
  details?: string;
  extra_info?: { input_name?: string; received_value?: unknown };
}

/** The body of a 400 from POST /prompt. */
export interface PromptRejection {
  error?: ComfyError | string;
  node_errors?: Record<string, { errors?: ComfyError[]; class_type?: string; dependent_outputs?: string[] }>;
}

/** One rejected input, as returned in structured data. */
export interface NodeProblem {
  node_id: string;
  class_type?: string;
  input?: string;
  field?: string;
  type?: string;
  message: string;
  details?: string;
}

/** A short, readable message and the structured list behind it. */
export function describeRejection(
  body: PromptRejection,
  fieldFor?: (nodeId: string, input: string | undefined) => string | undefined,
): { message: string; errors: NodeProblem[] } {
  const errors: NodeProblem[] = [];
  for (const [nodeId, entry] of Object.entries(body.node_errors ?? {})) {
    for (const e of entry.errors ?? []) {
      const input = e.extra_info?.input_name ?? (e.type === "required_input_missing" ? e.details : undefined);
      const p: NodeProblem = { node_id: nodeId, message: e.message ?? "invalid" };
      if (entry.class_type) p.class_type = entry.class_type;
      if (input) p.input = input;
      const field = fieldFor?.(nodeId, input);
      if (field) p.field = field;
      if (e.type) p.type = e.type;
      if (e.details) p.details = e.details;
      errors.push(p);
    }
  }
  const top = typeof body.error === "string" ? { message: body.error } : (body.error ?? {});
  if (errors.length === 0) {
    const why = [top.message, top.details].filter(Boolean).join(": ") || "no reason given";
    return { message: `ComfyUI отклонил workflow: ${why}.`, errors };
  }
  const lines = errors.map((p) => {
    const node = `узел ${p.node_id}${p.class_type ? ` (${p.class_type})` : ""}`;
    const input = p.input ? `, вход ${p.input}` : "";
    const field = p.field ? ` — аргумент "${p.field}"` : "";
    const details = p.details && p.details !== p.input ? `: ${p.details}` : "";
    return `${node}${input}${field}: ${p.message}${details}`;
  });
  return { message: `ComfyUI отклонил workflow: ${lines.join("; ")}.`, errors };
}
