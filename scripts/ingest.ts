/**
 * @module `npm run ingest -- [--collection NAME] [--base DIR] <files or folders>`: splits Markdown
 * and text files into section/source/content chunks, embeds them with the configured provider and
 * upserts them into Qdrant with stable ids. Re-running updates changed files and never duplicates.
 * Settings come from the environment and .dev.vars (QDRANT_*, EMBEDDING_*, CHUNK_MAX_CHARS).
 */
import { errorMessage } from "../shared/errors";
import { ingestPaths, loadNodeConfig, restAiRunner } from "./ingest-files";

const USAGE = `Usage: npm run ingest -- [--collection NAME] [--base DIR] [--prune] <files or folders>

Splits .md/.markdown/.mdx/.txt files by headings into chunks, embeds them with EMBEDDING_PROVIDER
and writes them to QDRANT_URL. Sources are paths relative to --base (default: current folder).
Re-running updates changed files and skips unchanged ones; --prune also deletes the chunks of
files that were removed from the given folders.`;

function parseArgs(
  argv: string[],
): { paths: string[]; collection?: string; base?: string; prune: boolean } | undefined {
  const paths: string[] = [];
  let prune = false;
  let collection: string | undefined;
  let base: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? "";
    if (a === "-h" || a === "--help") return undefined;
    if (a === "--collection") collection = argv[++i];
    else if (a === "--base") base = argv[++i];
    else if (a === "--prune") prune = true;
    else if (a.startsWith("--collection=")) collection = a.slice(13);
    else if (a.startsWith("--base=")) base = a.slice(7);
    else paths.push(a);
  }
  if (paths.length === 0) return undefined;
  return { paths, prune, ...(collection ? { collection } : {}), ...(base ? { base } : {}) };
}

const argv = process.argv.slice(2);
const args = parseArgs(argv);
if (!args) {
  console.log(USAGE);
  process.exit(argv.includes("--help") || argv.includes("-h") ? 0 : 2);
}
try {
  const config = loadNodeConfig();
  await ingestPaths({ ...args, config, ai: restAiRunner() });
} catch (err) {
  console.error(`Ingest failed: ${errorMessage(err)}`);
  process.exit(1);
}
