/** The deployable bundle's size, from `wrangler deploy --dry-run --outdir`. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

/** Raw and gzip size in KiB of every file wrangler would upload. */
export async function bundleSize(): Promise<Record<string, unknown>> {
  const out = mkdtempSync(join(tmpdir(), "bundle-"));
  try {
    execFileSync("npx", ["wrangler", "deploy", "--dry-run", "--outdir", out], {
      stdio: "ignore",
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    });
    let raw = 0;
    let gz = 0;
    for (const f of readdirSync(out)) {
      const p = join(out, f);
      if (!statSync(p).isFile() || f.endsWith(".map")) continue;
      const b = readFileSync(p);
      raw += b.length;
      gz += gzipSync(b, { level: 9 }).length;
    }
    return {
      files: readdirSync(out).filter((f) => !f.endsWith(".map")).length,
      raw_kib: raw / 1024,
      gzip_kib: gz / 1024,
      limit_free_kib: 3072,
      limit_paid_kib: 10240,
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
