/**
 * @module Node side of `npm run ingest`: settings from the environment and .dev.vars, walking files
 * and folders, a Workers AI REST runner, and the per-file loop over the shared ingest core
 * (workers/rag/ingest.ts). Also used by the benchmark to fill Qdrant.
 */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { type Config, loadConfig } from "../shared/config";
import { KnowledgeStore } from "../workers/rag/client";
import { createEmbedder } from "../workers/rag/embed";
import type { AiRunner } from "../workers/rag/embed-workers-ai";
import { type IngestStats, ingestDocument, pruneSources } from "../workers/rag/ingest";

const EXTENSIONS = /\.(md|markdown|mdx|txt|text)$/i;
const SKIP_DIRS = new Set(["node_modules", ".git", ".wrangler", "dist"]);

/** KEY=VALUE lines of a .dev.vars / .env file (quotes stripped, comments ignored). */
export function parseDotVars(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*([A-Z0-9_]+)\s*=\s*(.*?)\s*$/i.exec(line);
    if (!m || line.trimStart().startsWith("#")) continue;
    out[m[1] ?? ""] = (m[2] ?? "").replace(/^(['"])(.*)\1$/, "$2");
  }
  return out;
}

/** Settings: .dev.vars (when present) overlaid by the process environment. */
export function loadNodeConfig(env: NodeJS.ProcessEnv = process.env, devVars = ".dev.vars"): Config {
  const fromFile = existsSync(devVars) ? parseDotVars(readFileSync(devVars, "utf8")) : {};
  const merged: Record<string, string> = { ...fromFile };
  for (const [k, v] of Object.entries(env)) if (typeof v === "string") merged[k] = v;
  return loadConfig(merged);
}

/** Workers AI over the REST API, when CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_API_TOKEN are set. */
export function restAiRunner(env: NodeJS.ProcessEnv = process.env): AiRunner | undefined {
  const account = env.CLOUDFLARE_ACCOUNT_ID;
  const token = env.CLOUDFLARE_API_TOKEN;
  if (!account || !token) return undefined;
  return async (model, inputs) => {
    const res = await fetch(`https://api.cloudflare.com/client/v4/accounts/${account}/ai/run/${model}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify(inputs),
    });
    const body = (await res.json().catch(() => ({}))) as { result?: unknown; errors?: { message?: string }[] };
    if (!res.ok) throw new Error(`HTTP ${res.status} ${body.errors?.[0]?.message ?? res.statusText}`);
    return body.result;
  };
}

/** Every ingestible file under the given files and folders, sorted. */
export function listFiles(paths: readonly string[]): string[] {
  const out = new Set<string>();
  const walk = (p: string) => {
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const name of readdirSync(p)) if (!SKIP_DIRS.has(name) && !name.startsWith(".")) walk(join(p, name));
    } else if (st.isFile() && EXTENSIONS.test(p)) out.add(resolve(p));
  };
  for (const p of paths) {
    if (!existsSync(p)) throw new Error(`No such file or folder: ${p}`);
    walk(p);
  }
  return [...out].toSorted();
}

/** Options of one ingest run. */
export interface IngestRun {
  paths: string[];
  config: Config;
  collection?: string;
  /** Sources are paths relative to this folder (default: the working directory). */
  base?: string;
  ai?: AiRunner | undefined;
  /** Also delete chunks of files that no longer exist under the given folders. */
  prune?: boolean;
  log?: (line: string) => void;
}

/** Ingest every file; returns per-file stats. Stops at the first failing file with its reason. */
export async function ingestPaths(run: IngestRun): Promise<IngestStats[]> {
  const { config } = run;
  const log = run.log ?? ((l: string) => console.log(l));
  const files = listFiles(run.paths);
  const collection = run.collection ?? config.QDRANT_COLLECTION;
  const store = new KnowledgeStore({
    url: config.QDRANT_URL ?? "http://127.0.0.1:6333",
    apiKey: config.QDRANT_API_KEY,
    timeoutMs: config.QDRANT_TIMEOUT_MS,
  });
  const embedder = createEmbedder(config, { ai: run.ai });
  log(`Ingesting ${files.length} file(s) into ${collection} with ${embedder.provider}:${embedder.model}`);
  const stats: IngestStats[] = [];
  const base = resolve(run.base ?? ".");
  for (const [i, file] of files.entries()) {
    const source = relative(base, file).split(sep).join("/");
    const started = performance.now();
    const s = await ingestDocument(
      { source, text: readFileSync(file, "utf8") },
      {
        store,
        embedder,
        collection,
        using: config.QDRANT_VECTOR_NAME,
        batchSize: config.EMBEDDING_BATCH_SIZE,
        maxChars: config.CHUNK_MAX_CHARS,
        onProgress: (m) => log(`    ${m}`),
      },
    );
    stats.push(s);
    const ms = Math.round(performance.now() - started);
    log(
      `[${i + 1}/${files.length}] ${source}: ${s.chunks} chunks, ${s.written} written, ${s.unchanged} unchanged, ${s.deleted} stale deleted (${ms} ms)${s.createdCollection ? ", collection created" : ""}`,
    );
  }
  if (run.prune) {
    const prefixes = run.paths
      .filter((p) => statSync(p).isDirectory())
      .map((p) => relative(base, resolve(p)).split(sep).join("/"))
      .map((p) => (p ? `${p}/` : ""));
    const removed = await pruneSources(store, collection, prefixes, new Set(stats.map((s) => s.source)));
    for (const source of removed) log(`pruned ${source} (file no longer exists)`);
  }
  const sum = (k: "chunks" | "written" | "unchanged" | "deleted") => stats.reduce((n, s) => n + s[k], 0);
  log(
    `Done: ${sum("chunks")} chunks, ${sum("written")} written, ${sum("unchanged")} unchanged, ${sum("deleted")} deleted.`,
  );
  return stats;
}
