/** @module The search family: the external search service as `search` (spec 000) and `web_search` (spec 003). */
import { defineFamily } from "../../shared/tools/define-tool";
import { search } from "./search";
import { webSearch } from "./web-search";

export const searchFamily = defineFamily("search", [search, webSearch]);
