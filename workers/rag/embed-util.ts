/** @module Small helpers shared by the embedding providers and the Qdrant client. */
import { ToolError } from "../../shared/errors";

/** Check that a provider's answer is a list of equally long number arrays. */
export function checkVectors(value: unknown, provider: string, model: string): number[][] {
  const size = Array.isArray(value) && Array.isArray(value[0]) ? value[0].length : 0;
  const ok =
    Array.isArray(value) &&
    value.every((v) => Array.isArray(v) && v.length > 0 && v.length === size && v.every((x) => typeof x === "number"));
  if (!ok) throw new ToolError(`${provider} embeddings answered without vectors (model ${model})`);
  return value as number[][];
}

/** A URL safe to show: no credentials, no query string (the shared helper, under the name rag uses). */
export { shownUrl as safeUrl } from "../../shared/http/client";
