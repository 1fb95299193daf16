/** The Anki tools outside plain tools/call: REST routes (specs 001/003), OpenAI names, progress notifications. */
import { describe, expect, it } from "vitest";
import { api, connect } from "../helpers/mcp";

describe("Anki tools beyond tools/call", () => {
  it("answers POST /tools/{name} and POST /invoke, also under the OpenAI-safe name", async () => {
    const rest = await api("/tools/anki.model_info", { method: "POST", json: { model: "Basic" } });
    expect(rest.status).toBe(200);
    expect(((await rest.json()) as { structuredContent: { fields: string[] } }).structuredContent.fields).toEqual([
      "Front",
      "Back",
    ]);

    const invoke = await api("/invoke", {
      method: "POST",
      json: { name: "anki_note_info", arguments: JSON.stringify({ noteIds: [1] }) },
    });
    expect(await invoke.json()).toMatchObject({ structuredContent: { notes: [null] } });
  });

  it("maps an unknown note type to HTTP 422 (the tool refused) and bad arguments to 400 over REST", async () => {
    const refused = await api("/tools/anki.model_info", { method: "POST", json: { model: "Nope" } });
    expect(refused.status).toBe(422);
    const bad = await api("/tools/anki.note_info", { method: "POST", json: { noteIds: [] } });
    expect(bad.status).toBe(400);
  });

  it("reports progress through the steps of anki.add_from_model when the client asks", async () => {
    const client = await connect("/anki/mcp");
    const seen: { progress: number; total?: number; message?: string }[] = [];
    const res = await client.callTool(
      {
        name: "anki.add_from_model",
        arguments: { items: [{ Prompt: `progress ${crypto.randomUUID()}`, dedup_key: crypto.randomUUID() }] },
      },
      undefined,
      { onprogress: (p) => seen.push(p) },
    );
    await client.close();
    expect(res.isError).toBeFalsy();
    expect(seen.map((p) => p.message)).toEqual(["Reading from Anki", "Checking notes", "Adding notes"]);
    expect(seen.every((p) => p.total === 4)).toBe(true);
  });

  /**
   * Over the legacy SSE transport, read straight from the stream: the SDK's SSE client, run inside
   * workerd, hands every event to the client twice (Node's does not), so the wire is the witness.
   */
  it("reports progress over SSE too: each step once, before the result, on the session's stream", async () => {
    const stream = await api("/anki/sse", { headers: { Accept: "text/event-stream" } });
    const reader = (stream.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
    let wire = "";
    const readUntil = async (re: RegExp) => {
      while (!re.test(wire)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${re}`);
        wire += value;
      }
    };
    await readUntil(/event: endpoint\ndata: \S+/);
    const endpoint = /event: endpoint\ndata: (\S+)/.exec(wire)?.[1] ?? "";
    const post = async (message: unknown) => (await api(endpoint, { method: "POST", json: message })).status;
    const init = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } };
    expect(await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: init })).toBe(202);
    await readUntil(/"id":1,/);
    await post({ jsonrpc: "2.0", method: "notifications/initialized" });
    const item = { Prompt: `progress ${crypto.randomUUID()}`, dedup_key: crypto.randomUUID() };
    const call = { name: "anki.add_from_model", arguments: { items: [item] }, _meta: { progressToken: "p-1" } };
    expect(await post({ jsonrpc: "2.0", id: 2, method: "tools/call", params: call })).toBe(202);
    await readUntil(/"id":2,/);
    await reader.cancel();
    const messages = [...wire.matchAll(/^event: message\ndata: (.+)$/gm)].map(
      (m) =>
        JSON.parse(m[1] ?? "") as {
          id?: number;
          method?: string;
          params?: { progressToken?: string; message?: string };
        },
    );
    const afterInit = messages.filter((m) => m.id !== 1);
    expect(afterInit.map((m) => m.params?.message ?? `result ${m.id}`)).toEqual([
      "Reading from Anki",
      "Checking notes",
      "Adding notes",
      "result 2",
    ]);
    expect(
      afterInit.slice(0, 3).every((m) => m.method === "notifications/progress" && m.params?.progressToken === "p-1"),
    ).toBe(true);
  });
});
