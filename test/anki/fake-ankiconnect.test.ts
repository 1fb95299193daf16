/** The fake AnkiConnect keeps the real add-on's quirks (../shared/protocols/ankiconnect.md), so the client is tested against them. */
import { beforeEach, describe, expect, it } from "vitest";
import { fakeUrl } from "../helpers/mcp";
import { resetFake } from "../helpers/anki";

const FAKE = "anki_proto";
const post = async (body: unknown, init: RequestInit = {}) => {
  const res = await fetch(fakeUrl(FAKE), {
    method: "POST",
    body: typeof body === "string" ? body : JSON.stringify(body),
    ...init,
  });
  return { status: res.status, body: await res.text() };
};
const json = async (body: unknown) => JSON.parse((await post(body)).body) as unknown;
const note = (front: string, deckName = "Default") => ({
  deckName,
  modelName: "Basic",
  fields: { Front: front, Back: "b" },
  tags: [],
});

describe("fake AnkiConnect", () => {
  beforeEach(() => resetFake(FAKE));

  it("answers every error with HTTP 200 and the exact strings", async () => {
    expect(await post({ action: "nope", version: 6 })).toEqual({
      status: 200,
      body: '{"result": null, "error": "unsupported action"}',
    });
    // Python's json.dumps escapes non-ASCII text.
    expect((await post({ action: "modelFieldNames", version: 6, params: { modelName: "Поля" } })).body).toBe(
      '{"result": null, "error": "model was not found: \\u041f\\u043e\\u043b\\u044f"}',
    );
    expect(await json({ action: "modelFieldNames", version: 6, params: { modelName: "X" } })).toEqual({
      result: null,
      error: "model was not found: X",
    });
    expect(await json({ action: "addNote", version: 6, params: { note: note("a", "Nope") } })).toEqual({
      result: null,
      error: "deck was not found: Nope",
    });
    expect(await json({ action: "addNote", version: 6, params: { note: note("") } })).toEqual({
      result: null,
      error: "cannot create note because it is empty",
    });
    expect(await json({ action: "deckNames", version: 6, params: { foobar: 1 } })).toMatchObject({
      error: expect.stringContaining("unexpected keyword argument 'foobar'"),
    });
    expect(await json({})).toEqual({ result: null, error: "'action' is a required property" });
    expect(await json("{'action': 'version'}")).toEqual({
      result: null,
      error: "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
    });
    expect(await json("not json")).toEqual({ result: null, error: "Expecting value: line 1 column 1 (char 0)" });
  });

  it("returns bare results without a version, and the banner for an empty body", async () => {
    expect(await json({ action: "deckNames" })).toEqual(["Default"]);
    expect(await json("")).toEqual({ apiVersion: "AnkiConnect v.6" });
  });

  it("checks the key strictly: a key the server does not expect is rejected too", async () => {
    expect(await json({ action: "version", version: 6, key: "abc" })).toEqual({
      result: null,
      error: "valid api key must be provided",
    });
    await resetFake(FAKE, { apiKey: "s3cret" });
    expect(await json({ action: "version", version: 6 })).toEqual({
      result: null,
      error: "valid api key must be provided",
    });
    expect(await json({ action: "version", version: 6, key: "s3cret" })).toEqual({ result: 6, error: null });
    expect(await json({ action: "requestPermission", version: 6 })).toMatchObject({
      result: { permission: "granted", requireApikey: true },
    });
  });

  it("runs multi with each action's own version and key", async () => {
    const out = await json({
      action: "multi",
      version: 6,
      params: {
        actions: [
          { action: "deckNames" },
          { action: "deckNames", version: 6 },
          { action: "invalidAction", params: { useless: "param" } },
          { action: "invalidAction", params: { useless: "param" }, version: 6 },
        ],
      },
    });
    expect(out).toEqual({
      result: [
        ["Default"],
        { result: ["Default"], error: null },
        { result: null, error: "unsupported action" },
        { result: null, error: "unsupported action" },
      ],
      error: null,
    });
  });

  it("checks the schema of the request body only, not of multi's inner actions (they go straight to handler())", async () => {
    expect(await json({ action: 1, version: 6 })).toEqual({ result: null, error: "1 is not of type 'string'" });
    expect(await json({ action: "multi", version: 6, params: { actions: [{}, { action: 1, version: 6 }] } })).toEqual({
      result: [
        { result: null, error: "unsupported action" },
        { result: null, error: "unsupported action" },
      ],
      error: null,
    });
    expect(await json({ action: "multi", version: 6, params: { actions: [{ action: "version" }, 1] } })).toEqual({
      result: null,
      error: "'int' object has no attribute 'get'",
    });
    expect(await json({ action: "constructor", version: 6 })).toEqual({ result: null, error: "unsupported action" });
  });

  it("rolls back the whole addNotes batch on one failure (2025) and reports each failure as a Python list", async () => {
    await json({ action: "addNote", version: 6, params: { note: note("dup") } });
    const out = await json({
      action: "addNotes",
      version: 6,
      params: { notes: [note("fresh"), note("dup"), note("dup")] },
    });
    expect(out).toEqual({
      result: null,
      error: "['cannot create note because it is a duplicate', 'cannot create note because it is a duplicate']",
    });
    expect(await json({ action: "findNotes", version: 6, params: { query: "Front:fresh" } })).toEqual({
      result: [],
      error: null,
    });
    expect(
      await json({ action: "canAddNotesWithErrorDetail", version: 6, params: { notes: [note("dup"), note("new")] } }),
    ).toEqual({
      result: [{ canAdd: false, error: "cannot create note because it is a duplicate" }, { canAdd: true }],
      error: null,
    });
  });

  it("answers notesInfo with {} for a missing id and renames media only when asked not to overwrite", async () => {
    const id = ((await json({ action: "addNote", version: 6, params: { note: note("x") } })) as { result: number })
      .result;
    const info = (await json({ action: "notesInfo", version: 6, params: { notes: [id, 42] } })) as {
      result: unknown[];
    };
    expect(info.result[0]).toMatchObject({ noteId: id, profile: "User 1", modelName: "Basic" });
    expect(info.result[1]).toEqual({});
    const store = (filename: string, data: string, deleteExisting?: boolean) =>
      json({
        action: "storeMediaFile",
        version: 6,
        params: { filename, data, ...(deleteExisting === undefined ? {} : { deleteExisting }) },
      });
    expect(await store("a:b.txt", "aGVsbG8=")).toEqual({ result: "ab.txt", error: null });
    expect(await store("ab.txt", "d29ybGQ=", false)).toEqual({
      result: "ab-7c211433f02071597741e6ff5a8ea34789abbf43.txt",
      error: null,
    });
    expect(await store("x.txt", "abc")).toEqual({ result: null, error: "Incorrect padding" });
  });

  it("reads the body only by Content-Length", async () => {
    const body = JSON.stringify({ action: "version", version: 6 });
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode(body));
        c.close();
      },
    });
    const res = await fetch(fakeUrl(FAKE), { method: "POST", body: stream, duplex: "half" } as RequestInit);
    expect(await res.json()).toEqual({ apiVersion: "AnkiConnect v.6" });
  });
});
