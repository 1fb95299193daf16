/** @module Field normalisation: item shapes → canonical model field names in model order, with warnings. */
import type { ImageSpec, ModelItem } from "./schemas";

/** Warning codes that can appear in a detail's `warnings`. */
export type WarningCode =
  | "unknown_field"
  | "duplicate_field"
  | "unknown_target_field"
  | "image_not_resized"
  | "media_renamed";

/** Collected warnings of one item: codes (stable, for programs) and messages (for people). */
export class Warnings {
  readonly codes: WarningCode[] = [];
  readonly messages: string[] = [];

  add(code: WarningCode, message: string): void {
    if (!this.codes.includes(code)) this.codes.push(code);
    this.messages.push(message);
  }
}

const RESERVED = new Set(["fields", "tags", "images", "dedup_key"]);

/** Case-insensitive lookup of a canonical name among `names`. */
export function canonicalName(names: readonly string[], key: string): string | undefined {
  const k = key.trim().toLowerCase();
  return names.find((n) => n.toLowerCase() === k);
}

/** The text fields an add_from_model item carries, from `fields` and from flat top-level keys. */
export function itemFieldEntries(item: ModelItem): [string, string][] {
  const out: [string, string][] = Object.entries(item.fields ?? {});
  for (const [k, v] of Object.entries(item)) {
    if (!RESERVED.has(k) && typeof v === "string") out.push([k, v]);
  }
  return out;
}

/**
 * Map an item onto the model: keys matched case-insensitively, every model field present in the
 * model's order ("" when not given). Unknown keys are reported, never dropped silently.
 */
export function normalizeFields(entries: [string, string][], modelFields: readonly string[], w: Warnings) {
  const values = new Map<string, string>();
  for (const [key, value] of entries) {
    const name = canonicalName(modelFields, key);
    if (!name) {
      w.add(
        "unknown_field",
        `field "${key}" is not a field of this model (${modelFields.join(", ")}); its value was not added`,
      );
      continue;
    }
    if (values.has(name)) w.add("duplicate_field", `field "${name}" was given twice; the last value was used`);
    values.set(name, value);
  }
  const fields: Record<string, string> = {};
  for (const name of modelFields) fields[name] = values.get(name) ?? "";
  return fields;
}

/** Where the images of an add_from_model item go when their target_field is unknown: the answer side. */
export function fallbackField(modelFields: readonly string[]): string | undefined {
  return modelFields[1] ?? modelFields[0];
}

/**
 * Resolve each image's target_field against `names` (case-insensitive). add_from_model warns and
 * uses the answer-side field; add_notes refuses (returns the first bad target).
 */
export function resolveTargets(
  images: readonly ImageSpec[],
  names: readonly string[],
  w: Warnings | undefined,
): { targets: string[]; bad?: { index: number; target: string } } {
  const targets: string[] = [];
  for (const [i, img] of images.entries()) {
    const name = canonicalName(names, img.target_field);
    if (name) {
      targets.push(name);
      continue;
    }
    const fallback = w ? fallbackField(names) : undefined;
    if (!w || !fallback) return { targets, bad: { index: i, target: img.target_field } };
    w.add(
      "unknown_target_field",
      `images[${i}].target_field "${img.target_field}" is not a field of this model (${names.join(", ")}); the image was put in ${fallback}`,
    );
    targets.push(fallback);
  }
  return { targets };
}

/** Tags of a note, trimmed and without duplicates. */
export function cleanTags(tags: readonly string[], extra?: string): string[] {
  const out = [...new Set(tags.map((t) => t.trim()).filter(Boolean))];
  if (extra && !out.includes(extra)) out.push(extra);
  return out;
}
