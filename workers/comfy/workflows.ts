/**
 * @module The shipped ComfyUI config: workflows/tools.json and every workflow file it may name.
 * Workers cannot read files at run time, so each workflow is imported here: adding a workflow is
 * one JSON file in workflows/ plus one line below.
 */
import img2img from "../../workflows/img2img.json";
import portrait from "../../workflows/portrait.json";
import toolsJson from "../../workflows/tools.json";

/** Workflow files by the name tools.json uses in `"workflow"`. */
export const WORKFLOWS: Readonly<Record<string, unknown>> = {
  "portrait.json": portrait,
  "img2img.json": img2img,
};

/** The raw tools.json (checked by loadToolsConfig). */
export const TOOLS_JSON: unknown = toolsJson;
