/**
 * @module The ComfyUI tool config (workflows/tools.json, spec 001's format plus `required` and the
 * `enum`/`image` field types): its schema, and a check against the workflow files that collects every
 * problem and names it, so a broken config stops the Worker instead of shipping a half-working tool.
 */
import { z } from "zod";

/** Field types a tool may declare. `image` takes base64 / a data URL / an http(s) URL and uploads it. */
export const FIELD_TYPES = ["string", "integer", "number", "boolean", "enum", "image"] as const;
/** One of FIELD_TYPES. */
export type FieldType = (typeof FIELD_TYPES)[number];

/** An API-format workflow: node id → {class_type, inputs}. */
export type Workflow = Record<string, { class_type: string; inputs: Record<string, unknown>; _meta?: unknown }>;

const FieldSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, "must be an identifier like positive or cfg_scale"),
  type: z.enum(FIELD_TYPES),
  description: z.string().trim().min(1, "must not be empty"),
  required: z.boolean().optional(),
  enum: z.array(z.string()).min(1).optional(),
  mapping: z.strictObject({
    nodeId: z.union([z.number().int().nonnegative(), z.string().min(1)]),
    field: z.string().min(1),
  }),
  generation: z
    .strictObject({ strategy: z.literal("randomInt"), min: z.number().int(), max: z.number().int() })
    .optional(),
});

const ToolSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, "must be 1–64 characters of letters, digits, _ . -"),
  description: z.string().trim().min(1, "must not be empty"),
  workflow: z.string().min(1),
  fields: z.array(FieldSchema),
});

const ToolsFileSchema = z.strictObject({ tools: z.array(ToolSchema).min(1, "must list at least one tool") });

/** One entry of a tool's `fields`, as written in tools.json. */
export type FieldConfig = z.infer<typeof FieldSchema>;
/** One entry of `tools`, as written in tools.json. */
export type ToolConfig = z.infer<typeof ToolSchema>;

/** A checked tool: its config plus the workflow it runs. */
export interface ComfyToolSpec extends ToolConfig {
  workflowJson: Workflow;
}

/** Names reserved by the family itself. */
const RESERVED = new Set(["comfy.job_status"]);

/** Thrown when workflows/tools.json or a workflow does not check; `problems` lists every one. */
export class ComfyConfigError extends Error {
  override readonly name = "ComfyConfigError";
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`workflows/tools.json is invalid:\n- ${problems.join("\n- ")}`);
    this.problems = problems;
  }
}

function isLink(v: unknown): boolean {
  return Array.isArray(v) && v.length === 2 && typeof v[0] === "string" && typeof v[1] === "number";
}

/** What JSON type a field's value has once substituted into the workflow. */
function valueKind(type: FieldType): "string" | "number" | "boolean" {
  if (type === "integer" || type === "number") return "number";
  if (type === "boolean") return "boolean";
  return "string";
}

function checkWorkflowShape(name: string, wf: unknown): string[] {
  if (!wf || typeof wf !== "object" || Array.isArray(wf)) return [`workflow ${name} is not an API-format object`];
  const problems: string[] = [];
  for (const [id, node] of Object.entries(wf)) {
    const n = node as { class_type?: unknown; inputs?: unknown } | null;
    if (!n || typeof n.class_type !== "string" || !n.inputs || typeof n.inputs !== "object") {
      problems.push(
        `workflow ${name}: node ${id} has no class_type/inputs (export it with "Save (API Format)", not "Save")`,
      );
    }
  }
  return problems;
}

function checkField(tool: ToolConfig, f: FieldConfig, wf: Workflow, where: string): string[] {
  const problems: string[] = [];
  const at = `${where} field "${f.name}"`;
  if (f.type === "enum" && !f.enum) problems.push(`${at}: type "enum" needs an "enum" list of allowed values`);
  if (f.type !== "enum" && f.enum) problems.push(`${at}: "enum" values are only allowed with type "enum"`);
  if (f.generation) {
    if (f.type !== "integer" && f.type !== "number")
      problems.push(`${at}: generation randomInt needs type integer or number`);
    if (f.generation.min > f.generation.max)
      problems.push(`${at}: generation min ${f.generation.min} is greater than max ${f.generation.max}`);
    if (!Number.isSafeInteger(f.generation.min) || !Number.isSafeInteger(f.generation.max))
      problems.push(`${at}: generation min/max must be safe integers`);
  }
  const nodeId = String(f.mapping.nodeId);
  const node = wf[nodeId];
  if (!node) {
    problems.push(`${at}: nodeId ${nodeId} is not in workflow ${tool.workflow}`);
    return problems;
  }
  if (!(f.mapping.field in node.inputs)) {
    const known = Object.keys(node.inputs).join(", ");
    problems.push(
      `${at}: node ${nodeId} (${node.class_type}) of ${tool.workflow} has no input "${f.mapping.field}" (it has: ${known})`,
    );
    return problems;
  }
  const current = node.inputs[f.mapping.field];
  if (isLink(current)) {
    problems.push(
      `${at}: input "${f.mapping.field}" of node ${nodeId} is a link to another node, not a value; map the field to a widget input`,
    );
  } else if (typeof current !== valueKind(f.type)) {
    problems.push(
      `${at}: input "${f.mapping.field}" of node ${nodeId} holds a ${typeof current}, but the field is ${f.type}`,
    );
  }
  return problems;
}

/**
 * Check the raw tools.json against the workflow files and return the tools.
 * @throws ComfyConfigError listing every problem (bad shape, missing workflow, unknown node or
 *   input, link inputs, type mismatches, duplicate tool/field names, doubly mapped inputs).
 */
export function loadToolsConfig(raw: unknown, workflows: Readonly<Record<string, unknown>>): ComfyToolSpec[] {
  const parsed = ToolsFileSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ComfyConfigError(parsed.error.issues.map((i) => `${i.path.join(".") || "tools.json"}: ${i.message}`));
  }
  const problems: string[] = [];
  const names = new Set<string>();
  const specs: ComfyToolSpec[] = [];
  parsed.data.tools.forEach((tool, i) => {
    const where = `tools[${i}] "${tool.name}"`;
    if (names.has(tool.name)) problems.push(`${where}: duplicate tool name "${tool.name}"`);
    if (RESERVED.has(tool.name)) problems.push(`${where}: the name "${tool.name}" is reserved`);
    names.add(tool.name);
    const wf = workflows[tool.workflow];
    if (wf === undefined) {
      const known = Object.keys(workflows).join(", ") || "none";
      problems.push(
        `${where}: workflow file "${tool.workflow}" not found (known: ${known}; add it to workers/comfy/workflows.ts)`,
      );
      return;
    }
    const shape = checkWorkflowShape(tool.workflow, wf);
    if (shape.length) {
      problems.push(...shape.map((p) => `${where}: ${p}`));
      return;
    }
    const fieldNames = new Set<string>();
    const targets = new Map<string, string>();
    for (const f of tool.fields) {
      if (fieldNames.has(f.name)) problems.push(`${where}: duplicate field name "${f.name}"`);
      fieldNames.add(f.name);
      const target = `${f.mapping.nodeId}.${f.mapping.field}`;
      const other = targets.get(target);
      if (other) problems.push(`${where}: fields "${other}" and "${f.name}" both map to node ${target}`);
      targets.set(target, f.name);
      problems.push(...checkField(tool, f, wf as Workflow, where));
    }
    specs.push({ ...tool, workflowJson: wf as Workflow });
  });
  if (problems.length) throw new ComfyConfigError(problems);
  return specs;
}
