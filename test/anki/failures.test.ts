/** How Anki failures reach the model: down, slow, garbage, wrong API key, Cloudflare Access and the tunnel. */
import { beforeEach, describe, expect, it } from "vitest";
import { ankiRequests, ankiState, callAnki, dataOf, resetFake, textOf } from "../helpers/anki";
import { fakeControl, fakeStats, fakeUrl } from "../helpers/mcp";

const FAKE = "anki_faults";
const ID = "88bf3b6d86161464f6509f7219099e57.access";
const SECRET = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
const modelInfo = (vars: Record<string, string> = {}, fake = FAKE) => callAnki(fake, "anki.model_info", {}, vars);

describe("Anki failures", () => {
  beforeEach(() => resetFake(FAKE));

  it("says Anki is not reachable, with the fix, when nothing listens", async () => {
    const res = await callAnki(FAKE, "anki.model_info", {}, { ANKI_CONNECT_URL: "http://127.0.0.1:9" });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toBe(
      "Anki is not reachable at http://127.0.0.1:9: is Anki running with AnkiConnect, and is the tunnel up?",
    );
  });

  it("retries reads but never retries a write", async () => {
    await fakeControl(FAKE, { down: true });
    expect(textOf(await modelInfo())).toMatch(/^Anki is not reachable at http:\/\/127\.0\.0\.1:\d+: is Anki running/);
    expect(await ankiRequests(FAKE)).toBe(3);
    await resetFake(FAKE, { down: true });
    const res = await callAnki(FAKE, "anki.add_notes", { notes: [{ fields: { Prompt: "p" } }] });
    expect(res.isError).toBe(true);
    expect(await ankiRequests(FAKE)).toBe(1);
  });

  it("times out a slow Anki with a clear message", async () => {
    await fakeControl(FAKE, { latencyMs: 800 });
    const res = await callAnki(FAKE, "anki.note_info", { noteIds: [1] }, { ANKI_TIMEOUT_MS: "300" });
    expect(textOf(res)).toMatch(/^Anki did not answer within 300 ms at http:\/\/127\.0\.0\.1:\d+$/);
    // The fake still answers the abandoned requests later; let them land before the next test.
    await new Promise((r) => setTimeout(r, 900));
  });

  it("reports a server that is not AnkiConnect", async () => {
    await fakeControl(FAKE, { fault: "garbage" });
    expect(textOf(await modelInfo())).toMatch(
      /^Anki answered with something that is not JSON \(HTTP 200\); check that http:\/\/127\.0\.0\.1:\d+ is the right URL$/,
    );
    await resetFake(FAKE, { fault: "bare" });
    expect(textOf(await modelInfo())).toMatch(/^Anki answered without an AnkiConnect envelope/);
  });

  it("explains a body lost on the way (chunked encoding through a proxy)", async () => {
    await fakeControl(FAKE, { dropBody: true });
    expect(textOf(await modelInfo())).toContain("AnkiConnect received an empty request body");
  });

  it("sends the key only when ANKI_CONNECT_API_KEY is set, in every multi action too", async () => {
    await modelInfo();
    expect((await ankiState(FAKE)).received.every((e) => !("key" in e))).toBe(true);

    await resetFake(FAKE, { apiKey: "anki-key-123" });
    const ok = await callAnki(
      FAKE,
      "anki.add_from_model",
      { items: [{ Prompt: "with key" }] },
      { ANKI_CONNECT_API_KEY: "anki-key-123" },
    );
    expect(dataOf<{ added: number }>(ok).added).toBe(1);
    const received = (await ankiState(FAKE)).received;
    expect(received.length).toBeGreaterThan(4);
    expect(received.every((e) => e.key === "anki-key-123")).toBe(true);
  });

  it("explains an API key mismatch either way, without showing the key", async () => {
    await fakeControl(FAKE, { apiKey: "the-real-key" });
    const missing = textOf(await modelInfo());
    const wrong = textOf(await modelInfo({ ANKI_CONNECT_API_KEY: "a-wrong-key" }));
    await resetFake(FAKE);
    const unexpected = textOf(await modelInfo({ ANKI_CONNECT_API_KEY: "a-wrong-key" }));
    const expected =
      "AnkiConnect rejected the API key (valid api key must be provided): set ANKI_CONNECT_API_KEY to the apiKey in AnkiConnect's config, or leave both unset.";
    expect([missing, wrong, unexpected]).toEqual([expected, expected, expected]);
  });

  it("tells the user to open a profile when the collection is closed", async () => {
    await fakeControl(FAKE, { noCollection: true });
    expect(textOf(await modelInfo())).toBe(
      "Anki is running but no profile is open (collection is not available): open your profile in Anki.",
    );
  });

  it("lists the note types when anki.model_info gets an unknown one", async () => {
    const res = await callAnki(FAKE, "anki.model_info", { model: "Nope" });
    expect(textOf(res)).toBe(
      'Anki has no note type "Nope" (model was not found: Nope). Note types: Basic, Basic (and reversed card), Поля для ChatGPT.',
    );
  });
});

describe("through the Cloudflare Tunnel and Access", () => {
  const tunnel = () => fakeUrl("tunnel");
  const via = (vars: Record<string, string> = {}) => ({
    ANKI_CONNECT_URL: tunnel(),
    CF_ACCESS_CLIENT_ID: ID,
    CF_ACCESS_CLIENT_SECRET: SECRET,
    ...vars,
  });
  beforeEach(async () => {
    await resetFake(FAKE);
    await resetFake("tunnel", { origin: fakeUrl(FAKE) });
  });

  it("reaches AnkiConnect with the service token headers", async () => {
    const res = await callAnki(FAKE, "anki.add_from_model", { items: [{ Prompt: "via tunnel" }] }, via());
    expect(dataOf<{ added: number }>(res).added).toBe(1);
    const state = (await fakeStats("tunnel")) as unknown as {
      state: { forwarded: { hasAccessHeaders: string; userAgent: string }[] };
    };
    expect(state.state.forwarded.length).toBe(3);
    expect(state.state.forwarded[0]).toEqual({
      method: "POST",
      hasAccessHeaders: "true",
      userAgent: expect.stringContaining("mcp-tools-worker"),
    });
  });

  it("turns the Access login redirect into a clear error, without the secret", async () => {
    const attempts: Record<string, string>[] = [
      { CF_ACCESS_CLIENT_SECRET: "wrong-secret-value" },
      { CF_ACCESS_CLIENT_ID: "", CF_ACCESS_CLIENT_SECRET: "" },
    ];
    for (const vars of attempts) {
      const res = await callAnki(FAKE, "anki.model_info", {}, via(vars));
      expect(res.isError).toBe(true);
      expect(textOf(res)).toBe("Cloudflare Access rejected the service token");
      expect(JSON.stringify(res)).not.toContain(SECRET);
    }
  });

  it("tells a Service-Auth-only Access app's 403 apart: a wrong token, or none configured", async () => {
    await fakeControl("tunnel", { serviceAuthOnly: true });
    const wrong = await callAnki(FAKE, "anki.model_info", {}, via({ CF_ACCESS_CLIENT_SECRET: "wrong-secret-value" }));
    expect(textOf(wrong)).toBe("Cloudflare Access rejected the service token");
    const none = await callAnki(
      FAKE,
      "anki.model_info",
      {},
      via({ CF_ACCESS_CLIENT_ID: "", CF_ACCESS_CLIENT_SECRET: "" }),
    );
    expect(textOf(none)).toBe(
      `Cloudflare Access in front of ${tunnel()} requires a service token: set CF_ACCESS_CLIENT_ID and CF_ACCESS_CLIENT_SECRET`,
    );
  });

  it("says the tunnel is down (530) or Anki behind it is (502)", async () => {
    await fakeControl("tunnel", { tunnelDown: true });
    expect(textOf(await modelInfo(via()))).toBe(
      `Anki tunnel is down at ${tunnel()} (Cloudflare 530/1033): is cloudflared running?`,
    );
    await resetFake("tunnel", { origin: fakeUrl(FAKE), originDown: true });
    expect(textOf(await modelInfo(via()))).toBe(
      `Anki is not reachable at ${tunnel()}: is Anki running with AnkiConnect, and is the tunnel up?`,
    );
  });
});
