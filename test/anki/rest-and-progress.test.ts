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
});
