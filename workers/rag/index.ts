/** @module The rag family: search (qdrant-find) and fill (qdrant-store) the Qdrant knowledge base. */
import { defineFamily } from "../../shared/tools/define-tool";
import { qdrantFind } from "./qdrant-find";
import { qdrantStore } from "./qdrant-store";

export const ragFamily = defineFamily("rag", [qdrantFind, qdrantStore]);
