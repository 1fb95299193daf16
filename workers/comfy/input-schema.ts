/**
 * @module The input schema of a generated ComfyUI tool: a zod strictObject whose JSON Schema is
 * spec 001's canonical shape (descriptions that mention the node, `required` only for fields the
 * config marks, `additionalProperties: false`).
 */
import { z } from "zod";
import type { FieldConfig } from "./config";

/** Said of fields that are generated when absent (spec 001's wording). */
export const GENERATED_NOTE = "если не передан — будет сгенерирован случайно";
const IMAGE_NOTE = "PNG, JPEG или WebP: base64, data:-URL или ссылка http(s)";

/**
 * The description the model sees: "Позитивный промпт (text node #9)". A generated field says it
 * will be generated instead, as in spec 001's example ("Сид генерации (если не передан — …)").
 */
export function fieldDescription(f: FieldConfig): string {
  if (f.generation) return `${f.description} (${GENERATED_NOTE})`;
  const node = `${f.description} (${f.mapping.field} node #${f.mapping.nodeId})`;
  return f.type === "image" ? `${node}. ${IMAGE_NOTE}` : node;
}

function baseType(f: FieldConfig): z.ZodType {
  switch (f.type) {
    case "string":
      return z.string();
    case "image":
      return z.string().min(1, "must not be empty");
    case "integer":
      // z.int() would add ±2^53 bounds to the JSON Schema; spec 001's example has a bare "integer".
      return z.number().refine(Number.isInteger, "must be an integer").meta({ type: "integer" });
    case "number":
      return z.number();
    case "boolean":
      return z.boolean();
    case "enum":
      return z.enum((f.enum ?? []) as [string, ...string[]]);
  }
}

/** The tool's input: one property per field, in config order. */
export function inputSchemaFor(fields: readonly FieldConfig[]): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const f of fields) {
    const t = baseType(f).describe(fieldDescription(f));
    shape[f.name] = f.required ? t : t.optional();
  }
  return z.strictObject(shape);
}
