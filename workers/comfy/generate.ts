/** @module Turns each checked entry of workflows/tools.json into a tool with spec 001's canonical structure. */
import { type AnyTool, defineTool } from "../../shared/tools/define-tool";
import type { ComfyToolSpec } from "./config";
import { inputSchemaFor } from "./input-schema";
import { runComfyTool } from "./run";

/** Appended to every generated description, so a model knows what comes back and what to do next. */
export const RESULT_NOTE =
  " Возвращает превью, ссылки на полноразмерные изображения и использованные значения (seed и др.). Если задача не успела завершиться за время ожидания, возвращает job_id — результат даст comfy.job_status.";

/** The tool for one config entry. */
export function comfyTool(spec: ComfyToolSpec): AnyTool {
  return defineTool({
    name: spec.name,
    title: `ComfyUI: ${spec.name}`,
    description: spec.description + RESULT_NOTE,
    input: inputSchemaFor(spec.fields),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    handler: (args, ctx) => runComfyTool(spec, args, ctx),
  });
}
