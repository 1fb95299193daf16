import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { UpstreamError } from "../../shared/errors";
import { type Upstream, upstreamFetch, upstreamJson } from "../../shared/http/client";
import { withRetry } from "../../shared/http/retry";
import { createLogger, redact } from "../../shared/log";
import { fakeControl, fakeStats } from "../helpers/mcp";

const up = (over: Partial<Upstream> = {}): Upstream => ({
  name: "Echo",
  baseUrl: env.FAKE_ECHO_URL,
  unreachableHint: "is it running?",
  ...over,
});

async function failure(p: Promise<unknown>): Promise<UpstreamError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof UpstreamError) return e;
    throw e;
  }
  throw new Error("expected a failure");
}

describe("outbound HTTP helper", () => {
  afterEach(() => fakeControl("echo", null));

  it("sends Access headers, a User-Agent and a JSON body with Content-Length", async () => {
    const echo = await upstreamJson<{ headers: Record<string, string>; body: string }>(
      up({ access: { clientId: "id.access", clientSecret: "s3cret" } }),
      {
        path: "/echo",
        json: { a: 1 },
      },
    );
    expect(echo.headers["cf-access-client-id"]).toBe("id.access");
    expect(echo.headers["cf-access-client-secret"]).toBe("s3cret");
    expect(echo.headers["user-agent"]).toMatch(/^mcp-tools-worker/);
    expect(echo.headers["content-length"]).toBe("7");
    expect(echo.body).toBe('{"a":1}');
  });

  it("turns an Access login redirect into a clear error instead of following it", async () => {
    const loc = encodeURIComponent("https://team.cloudflareaccess.com/cdn-cgi/access/login/anki.example.com");
    const err = await failure(upstreamFetch(up(), { path: `/status/302?location=${loc}` }));
    expect(err.message).toBe("Cloudflare Access rejected the service token");
  });

  it("explains a dead tunnel (530) and an unreachable origin", async () => {
    expect((await failure(upstreamFetch(up(), { path: "/status/530" }))).message).toMatch(
      /tunnel is down.*cloudflared/,
    );
    await fakeControl("echo", { down: true });
    const err = await failure(upstreamFetch(up(), { path: "/echo" }));
    expect(err.message).toBe(`Echo is not reachable at ${env.FAKE_ECHO_URL}: is it running?`);
  });

  it("times out a slow upstream with the limit in the message", async () => {
    await fakeControl("echo", { latencyMs: 1500 });
    const err = await failure(upstreamFetch(up(), { path: "/echo", timeoutMs: 200 }));
    expect(err.message).toBe(`Echo did not answer within 200 ms at ${env.FAKE_ECHO_URL}`);
    expect(err.status).toBe(408);
  });

  it("retries transient failures of reads, not client errors", async () => {
    const ok = await upstreamJson<{ attempts: number }>(up(), {
      path: "/flaky/2",
      retry: { maxAttempts: 3, baseDelayMs: 1 },
    });
    expect(ok.attempts).toBe(3);
    await fakeControl("echo", null);
    await failure(upstreamFetch(up(), { path: "/status/400", retry: { maxAttempts: 3, baseDelayMs: 1 } }));
    expect((await fakeStats("echo")).requests).toBe(1);
  });

  it("says so when the answer is not JSON", async () => {
    await fakeControl("echo", { fault: "garbage" });
    const err = await failure(upstreamJson(up(), { path: "/echo" }));
    expect(err.message).toMatch(/not JSON.*right URL/);
  });

  it("withRetry validates its options and stops when told", async () => {
    await expect(withRetry(async () => 1, { maxAttempts: 0 })).rejects.toThrow(/maxAttempts/);
    let calls = 0;
    await expect(
      withRetry(
        async () => {
          calls++;
          throw new Error("x");
        },
        { maxAttempts: 5, baseDelayMs: 1, shouldRetry: (_e, next) => next <= 2 },
      ),
    ).rejects.toThrow("x");
    expect(calls).toBe(2);
  });

  it("redacts secrets from logs", () => {
    expect(redact({ token: "abc", nested: { msg: "key=SECRET-123 here" } }, ["SECRET-123"])).toEqual({
      token: "[redacted]",
      nested: { msg: "key=[redacted] here" },
    });
    expect(() => createLogger("error").info("quiet")).not.toThrow();
  });
});
