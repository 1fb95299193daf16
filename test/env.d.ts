declare namespace Cloudflare {
  interface Env {
    /** JSON map of fake key → base URL, set by test/vitest.config.ts. */
    FAKE_URLS: string;
    FAKE_ECHO_URL: string;
    /** Points at the ComfyUI fake (test/fakes/comfyui.ts). */
    COMFYUI_URL: string;
    MCP_AUTH_TOKEN: string;
    GEMINI_API_KEY: string;
  }
}

/** Vite's `?raw` imports: a file's text (used to check .dev.vars.example against the config schema). */
declare module "*?raw" {
  const text: string;
  export default text;
}
