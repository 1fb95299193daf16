/**
 * Vitest in the Workers runtime. Upstream fakes are real HTTP servers on 127.0.0.1, started
 * here (before the Worker's bindings are built, so their URLs become settings) and closed by
 * global-setup.ts when the run ends.
 */
import { fileURLToPath } from "node:url";
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import { envForFakes, startAllFakes } from "./fakes/index";

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  plugins: [
    cloudflareTest(async () => {
      const g = globalThis as { __fakes?: Awaited<ReturnType<typeof startAllFakes>> };
      g.__fakes ??= await startAllFakes();
      const urls = Object.fromEntries(Object.entries(g.__fakes).map(([k, f]) => [k, f.url]));
      return {
        main: here("../workers/index.ts"),
        wrangler: { configPath: here("../wrangler.toml") },
        remoteBindings: false,
        miniflare: {
          bindings: {
            MCP_AUTH_TOKEN: "test-token-all,test-token-core:core,test-token-cards:cards",
            LOG_LEVEL: "warn",
            FAKE_URLS: JSON.stringify(urls),
            ...envForFakes(urls),
          },
        },
      };
    }),
  ],
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: [here("./global-setup.ts")],
    // The fakes are shared servers whose state and knobs tests reset; files running at once
    // (vitest's default on machines with more than 2 cores) would reset each other's state.
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
