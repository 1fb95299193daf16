/** @module The registry of every family. This file and workers/index.ts are the only places that know all families. */
import { ToolRegistry } from "../shared/tools/registry";
import { ankiFamily } from "./anki/index";
import { cardsFamily } from "./cards/index";
import { coreFamily } from "./core/index";
import { ragFamily } from "./rag/index";
import { searchFamily } from "./search/index";

/** Every family, in route order. */
export const registry = new ToolRegistry([coreFamily, ankiFamily, searchFamily, ragFamily, cardsFamily]);
