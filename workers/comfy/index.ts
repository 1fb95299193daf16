/**
 * @module The comfy family: one tool per entry of workflows/tools.json (checked when this module
 * loads — a broken config stops the Worker with a message naming the problem) plus comfy.job_status.
 */
import { defineFamily } from "../../shared/tools/define-tool";
import { loadToolsConfig } from "./config";
import { comfyTool } from "./generate";
import { jobStatus } from "./job-status";
import { TOOLS_JSON, WORKFLOWS } from "./workflows";

export { ComfyJobStore } from "./job-store";
export { consumeDeadLetters, consumeJobs, DEAD_LETTER_QUEUE, JOBS_QUEUE } from "./consumer";
export { filesRoutes } from "./files";
export { comfyRoutes } from "./routes";

/** The checked tool specs (exported for tests and docs). */
export const comfySpecs = loadToolsConfig(TOOLS_JSON, WORKFLOWS);

/** The family: generated tools in config order, then comfy.job_status. */
export const comfyFamily = defineFamily("comfy", [...comfySpecs.map(comfyTool), jobStatus]);
