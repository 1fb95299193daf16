/** Secrets never reach a client or a log line: credentials written into upstream URLs included. */
import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { UpstreamError } from "../../shared/errors";
import { upstreamFetch, upstreamJson } from "../../shared/http/client";
import worker from "../../workers/index";
import { fakeControl } from "../helpers/mcp";

const SECRET = "hunter2-pass";
/** A URL as a user might write it for a proxy that wants basic auth, or a webhook with a token in the query. */
const withCredentials = (base: string, query = true) => {
  const u = new URL(base);
  u.username = "me";
  u.password = SECRET;
  if (query) u.search = `?token=${SECRET}`;
  return u.href;
};

/** Call a tool over REST with some settings replaced; returns the body text and every console line. */
async function callWith(vars: Record<string, string>, tool: string, args: unknown) {
  const lines: string[] = [];
  const spies = (["log", "info", "warn", "error", "debug"] as const).map((m) =>
    vi.spyOn(console, m).mockImplementation((...a: unknown[]) => void lines.push(a.map(String).join(" "))),
  );
  try {
    const ctx = createExecutionContext();
    const res = await worker.fetch(
      new Request(`https://mcp.test/tools/${tool}`, {
        method: "POST",
        headers: { Authorization: "Bearer test-token-all", "Content-Type": "application/json" },
        body: JSON.stringify(args),
      }),
      { ...env, LOG_LEVEL: "debug", ...vars },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return { status: res.status, body: await res.text(), logs: lines.join("\n") };
  } finally {
    for (const s of spies) s.mockRestore();
  }
}

describe("secrets stay out of error messages and logs", () => {
  afterEach(() => fakeControl("echo", null));

  it("an upstream URL's user:password never appears in the helper's messages", async () => {
    const baseUrl = withCredentials(env.FAKE_ECHO_URL, false).replace(/\/$/, "");
    const messages: string[] = [];
    const capture = async (p: Promise<unknown>) => {
      try {
        await p;
      } catch (e) {
        if (e instanceof UpstreamError) messages.push(e.message);
      }
    };
    await capture(upstreamFetch({ name: "Echo", baseUrl }, { path: "/status/530" }));
    await capture(upstreamJson({ name: "Echo", baseUrl }, { path: "/status/200?body=garbage" }));
    await capture(
      upstreamFetch({ name: "Echo", baseUrl }, { path: "/status/403?body=Forbidden%20by%20Cloudflare%20Access" }),
    );
    await fakeControl("echo", { down: true });
    await capture(upstreamFetch({ name: "Echo", baseUrl }, { path: "/echo" }));
    expect(messages).toHaveLength(4);
    for (const m of messages) {
      expect(m).not.toContain(SECRET);
      expect(m).toContain(new URL(env.FAKE_ECHO_URL).host);
    }
  });

  for (const [setting, tool, args] of [
    ["ANKI_CONNECT_URL", "anki.model_info", { model: "Basic" }],
    ["COMFYUI_URL", "txt2img_portrait", { positive: "x", seed: 1 }],
    ["CARD_API_URL", "get_card_illustration", { card_name: "Dark Magician" }],
    ["SEARCH_API_URL", "search", { query: "x" }],
    ["QDRANT_URL", "qdrant-find", { query: "x" }],
  ] as const) {
    it(`${setting} with credentials in it: the failed ${tool} call shows the host, never the password`, async () => {
      // Port 9 (discard) is closed on 127.0.0.1: the call fails fast, and the message names the URL.
      const { body, logs } = await callWith({ [setting]: withCredentials("http://127.0.0.1:9/api") }, tool, args);
      expect(body).toContain("127.0.0.1:9");
      expect(body).not.toContain(SECRET);
      expect(logs).not.toContain(SECRET);
      // The caller's bearer token is never logged either, even at LOG_LEVEL=debug.
      expect(logs).not.toContain("test-token-all");
    });
  }
});
