#!/usr/bin/env node
// First-run setup for local development: checks Node, creates .dev.vars from the example
// (with the documented dev token), and prints how to connect. Safe to run again.
import { copyFileSync, existsSync, readFileSync } from "node:fs";

const [major] = process.versions.node.split(".").map(Number);
if (major < 20) {
  console.error(`Node ${process.versions.node} is too old: this project needs Node 20 or newer.`);
  process.exit(1);
}
if (!existsSync("node_modules/wrangler")) {
  console.error("Dependencies are missing: run `npm install` first.");
  process.exit(1);
}
if (!existsSync(".dev.vars")) {
  copyFileSync(".dev.vars.example", ".dev.vars");
  console.log("Created .dev.vars from .dev.vars.example (edit it to point at your Anki, ComfyUI, Qdrant…).");
}
const token = /^MCP_AUTH_TOKEN=(.*)$/m.exec(readFileSync(".dev.vars", "utf8"))?.[1]?.split(/[,:]/)[0]?.trim();
console.log(`
Local server: http://127.0.0.1:8787
  MCP (Streamable HTTP): http://127.0.0.1:8787/mcp     legacy SSE: http://127.0.0.1:8787/sse
  Bearer token:          ${token || "(none set: every request will be refused; set MCP_AUTH_TOKEN in .dev.vars)"}
  Tool list:             curl -H "Authorization: Bearer ${token || "<token>"}" http://127.0.0.1:8787/tools
`);
