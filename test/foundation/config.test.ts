import { describe, expect, it } from "vitest";
import example from "../../.dev.vars.example?raw";
import { ConfigError, ConfigSchema, loadConfig, secretsOf } from "../../shared/config";

describe("settings", () => {
  it("applies defaults, and treats empty variables as unset", () => {
    const c = loadConfig({ ANKI_DEFAULT_DECK: "", ANKI_DEFAULT_MODEL: "  ", QDRANT_VECTOR_NAME: "" });
    expect(c.ANKI_DEFAULT_DECK).toBe("Default");
    expect(c.ANKI_DEFAULT_MODEL).toBe("Поля для ChatGPT");
    expect(c.QDRANT_VECTOR_NAME).toBe("");
    expect(c.ANKI_CONNECT_URL).toBe("http://127.0.0.1:8765");
    expect(c.MCP_AUTH_TOKEN).toEqual([]);
  });

  it("parses several tokens, each optionally limited to families", () => {
    const c = loadConfig({ MCP_AUTH_TOKEN: "alpha-token-1, beta-token-2:anki+core\ngamma-token-3:rag" });
    expect(c.MCP_AUTH_TOKEN).toEqual([
      { token: "alpha-token-1" },
      { token: "beta-token-2", families: ["anki", "core"] },
      { token: "gamma-token-3", families: ["rag"] },
    ]);
  });

  it("names every bad variable in one message, without echoing secrets", () => {
    let err: unknown;
    try {
      loadConfig({ QDRANT_URL: "ftp://nope", RERANK_MODE: "magic", MCP_AUTH_TOKEN: "short", ANKI_TIMEOUT_MS: "fast" });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const msg = (err as Error).message;
    expect(msg).toMatch(/QDRANT_URL: must be an http\(s\) URL/);
    expect(msg).toMatch(/RERANK_MODE:/);
    expect(msg).toMatch(/MCP_AUTH_TOKEN: each token must be at least 8 characters/);
    expect(msg).toMatch(/ANKI_TIMEOUT_MS:/);
    expect(msg).not.toContain("short");
  });

  it("strips trailing slashes from URLs and lists secrets for redaction", () => {
    const c = loadConfig({
      COMFYUI_URL: "https://comfy.example.com/",
      MCP_AUTH_TOKEN: "tok-123456",
      GEMINI_API_KEY: "AIza-secret",
    });
    expect(c.COMFYUI_URL).toBe("https://comfy.example.com");
    expect(secretsOf(c)).toEqual(expect.arrayContaining(["tok-123456", "AIza-secret"]));
  });

  it(".dev.vars.example lists every setting, each under a comment, and parses as it stands", () => {
    const lines = example.split("\n");
    const listed = lines.flatMap((l) => /^([A-Z][A-Z0-9_]*)=/.exec(l)?.[1] ?? []);
    expect(listed.sort()).toEqual(Object.keys(ConfigSchema.shape).sort());
    lines.forEach((line, i) => {
      if (!/^[A-Z]/.test(line)) return;
      // A setting sits right under its comment, or in a block of settings that opens with one.
      let j = i - 1;
      while (j >= 0 && /^[A-Z]/.test(lines[j] ?? "")) j--;
      expect(lines[j] ?? "", line).toMatch(/^#/);
    });
    const vars: Record<string, string> = {};
    for (const l of lines) {
      const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(l);
      if (m?.[1]) vars[m[1]] = m[2] ?? "";
    }
    expect(() => loadConfig(vars)).not.toThrow();
  });
});
