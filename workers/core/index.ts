/** @module The core family: connectivity check and a safe calculator. */
import { defineFamily } from "../../shared/tools/define-tool";
import { calculator } from "./calculator";
import { greet } from "./greet";

export const coreFamily = defineFamily("core", [greet, calculator]);
