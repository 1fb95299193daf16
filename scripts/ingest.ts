/**
 * @module `npm run ingest -- [--collection NAME] [--base DIR] <files or folders>`: splits Markdown
 * and text files into section/source/content chunks, embeds them with the configured provider and
 * upserts them into Qdrant with stable ids. Re-running updates changed files and never duplicates.
 * Settings come from the environment and .dev.vars (QDRANT_*, EMBEDDING_*, CHUNK_MAX_CHARS).
 */
import { errorMessage } from "../shared/errors";
import { ingestPaths, loadNodeConfig, restAiRunner } from "./ingest-files";

const USAGE = `Usage: npm run ingest -- [--collection NAME] [--base DIR] <files or folders>

Splits .md/.markdown/.mdx/.txt files by headings into chunks, embeds them with EMBEDDING_PROVIDER
and writes them to QDRANT_URL. Sources are paths relative to --base (default: current folder).`;

function parseArgs(argv: string[]): { paths: string[]; collection?: string; base?: string } | undefined {
  const paths: string[] = [];
  let collection: string | undefined;
  let base: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? "";
    if (a === "-h" || a === "--help") return undefined;
    if (a === "--collection") collection = argv[++i];
    else if (a === "--base") base = argv[++i];
    else if (a.startsWith("--collection=")) collection = a.slice(13);
    else if (a.startsWith("--base=")) base = a.slice(7);
    else paths.push(a);
  }
  if (paths.length === 0) return undefined;
  return { paths, ...(collection ? { collection } : {}), ...(base ? { base } : {}) };
}

const args = parseArgs(process.argv.slice(2));
if (!args) {
  console.log(USAGE);
  process.exit(args === undefined && process.argv.length > 2 ? 0 : 2);
}
try {
  const config = loadNodeConfig();
  await ingestPaths({ ...args, config, ai: restAiRunner() });
} catch (err) {
  console.error(`Ingest failed: ${errorMessage(err)}`);
  process.exit(1);
}
