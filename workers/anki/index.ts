/** @module The Anki family: model info, model-aware and low-level note adding, note info (spec 000). */
import { defineFamily } from "../../shared/tools/define-tool";
import { addFromModel } from "./add-from-model";
import { addNotes } from "./add-notes";
import { modelInfo } from "./model-info";
import { noteInfo } from "./note-info";

export const ankiFamily = defineFamily("anki", [modelInfo, addFromModel, noteInfo, addNotes]);
