/**
 * @module From tool arguments to a ComfyUI prompt: fill generated fields (randomInt), substitute
 * every value into a deep copy of the workflow by mapping, and report the values actually used
 * (workflow defaults included), so a result can be reproduced.
 */
import type { ComfyToolSpec, FieldConfig, Workflow } from "./config";

/** A uniformly random integer in [min, max] from the platform CSPRNG. */
export function randomInt(min: number, max: number): number {
  const span = max - min + 1;
  const buf = new Uint32Array(2);
  crypto.getRandomValues(buf);
  // 53 random bits, so spans up to 2^53 stay uniform enough for seeds.
  const r = ((buf[0] ?? 0) * 2 ** 21 + ((buf[1] ?? 0) >>> 11)) / 2 ** 53;
  return min + Math.floor(r * span);
}

/** A prompt ready for POST /prompt, plus what it was built from. */
export interface BuiltPrompt {
  prompt: Workflow;
  /** Every field's value as sent to ComfyUI (given, generated, or the workflow's own). */
  values: Record<string, unknown>;
  /** Names of fields that were generated for this call. */
  generated: string[];
}

function nodeOf(prompt: Workflow, f: FieldConfig) {
  // The config check guarantees the node exists; a missing one here is a programming error.
  const node = prompt[String(f.mapping.nodeId)];
  if (!node) throw new Error(`node ${f.mapping.nodeId} vanished from the workflow`);
  return node;
}

/**
 * Build the prompt for `args` (already validated; image fields already replaced by the name
 * ComfyUI gave the upload). Fields that are absent keep the workflow's value unless generated.
 */
export function buildPrompt(
  spec: ComfyToolSpec,
  args: Readonly<Record<string, unknown>>,
  random: (min: number, max: number) => number = randomInt,
): BuiltPrompt {
  const prompt = structuredClone(spec.workflowJson);
  const values: Record<string, unknown> = {};
  const generated: string[] = [];
  for (const f of spec.fields) {
    const node = nodeOf(prompt, f);
    let value = args[f.name];
    if (value === undefined && f.generation) {
      value = random(f.generation.min, f.generation.max);
      generated.push(f.name);
    }
    if (value !== undefined) node.inputs[f.mapping.field] = value;
    values[f.name] = node.inputs[f.mapping.field];
  }
  return { prompt, values, generated };
}

/** The tool field (if any) mapped to a node input; used to point validation errors at arguments. */
export function fieldFor(spec: ComfyToolSpec, nodeId: string, input: string | undefined): string | undefined {
  return spec.fields.find((f) => String(f.mapping.nodeId) === nodeId && f.mapping.field === input)?.name;
}
