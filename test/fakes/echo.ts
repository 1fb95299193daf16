/** @module A generic fake used by the shared HTTP helper's tests: echoes requests, or misbehaves on demand. */
import type { FakeDefinition } from "./harness";

let flaky = 0;

/** Echo fake: `/echo` returns the request; `/status/{code}` answers that status; `/flaky/{n}` fails n times then succeeds. */
export const echoFake: FakeDefinition = {
  name: "echo",
  reset() {
    flaky = 0;
  },
  handle(req) {
    if (req.knobs.fault === "garbage")
      return { body: "<html>not json</html>", headers: { "Content-Type": "text/html" } };
    const status = /^\/status\/(\d{3})$/.exec(req.path);
    if (status) {
      const code = Number(status[1]);
      const headers: Record<string, string> = {};
      const loc = req.query.get("location");
      if (loc) headers.Location = loc;
      const ra = req.query.get("retry-after");
      if (ra) headers["Retry-After"] = ra;
      return { status: code, headers, body: req.query.get("body") ?? "" };
    }
    const fl = /^\/flaky\/(\d+)$/.exec(req.path);
    if (fl) {
      flaky++;
      return flaky <= Number(fl[1]) ? { status: 503, body: "busy" } : { json: { ok: true, attempts: flaky } };
    }
    return {
      json: {
        method: req.method,
        path: req.path,
        query: Object.fromEntries(req.query),
        headers: req.headers,
        body: req.body.toString("utf8"),
      },
    };
  },
};
