/** dedup_key: a retry — after a timeout, in another session, after a Worker restart — never creates a second note. */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { sha1Hex } from "../../shared/images";
import { ToolRegistry } from "../../shared/tools/registry";
import { ankiFamily } from "../../workers/anki/index";
import { ankiAction, ankiState, callAnki, dataOf, resetFake, textOf } from "../helpers/anki";
import { toolContext } from "../helpers/context";
import { connect, fakeControl, fakeUrl } from "../helpers/mcp";

const FAKE = "anki_dedup";
type Detail = { index: number; status: string; noteId?: number; dedup_key?: string; error?: string };
type AddResult = { added: number; skipped: number; details: Detail[] };
const key = (label: string) => `${label}-${crypto.randomUUID()}`;
const add = async (items: unknown[], vars?: Record<string, string>) =>
  dataOf<AddResult>(await callAnki(FAKE, "anki.add_from_model", { items }, vars));
const notes = async () => (await ankiState(FAKE)).notes;

describe("dedup_key", () => {
  beforeEach(() => resetFake(FAKE));

  it("skips a second call with the same key and returns the existing noteId", async () => {
    const k = key("repeat");
    const first = await add([{ Prompt: "once", dedup_key: k }]);
    const again = await add([{ Prompt: "once, edited", dedup_key: k }]);
    expect(first.details[0]).toMatchObject({ status: "ok", dedup_key: k });
    expect(again).toEqual({
      added: 0,
      skipped: 1,
      details: [{ index: 0, status: "already_added", noteId: first.details[0]?.noteId, dedup_key: k }],
    });
    expect(await notes()).toHaveLength(1);
  });

  it("survives a fresh registry and context (the ledger is a Durable Object, not memory)", async () => {
    const k = key("restart");
    const first = await add([{ Prompt: "durable", dedup_key: k }]);
    const fresh = new ToolRegistry([ankiFamily]);
    const tool = fresh.get("anki.add_from_model");
    if (!tool) throw new Error("tool missing");
    const out = await fresh.call(
      tool,
      { items: [{ Prompt: "durable", dedup_key: k }] },
      toolContext({ ANKI_CONNECT_URL: fakeUrl(FAKE) }),
    );
    expect(dataOf<AddResult>(out.result).details[0]).toMatchObject({
      status: "already_added",
      noteId: first.details[0]?.noteId,
    });
    // The record lives in the Durable Object's SQLite storage, which outlives any Worker isolate.
    const ledger = env.ANKI_DEDUP.get(env.ANKI_DEDUP.idFromName("anki-dedup"));
    expect(await ledger.lookup(k)).toEqual({ state: "done", noteId: first.details[0]?.noteId });
  });

  it("holds across MCP sessions and transports of the Worker", async () => {
    const k = key("session");
    const prompt = `session ${k}`;
    const a = await connect("/anki/mcp");
    const first = dataOf<AddResult>(
      await a.callTool({ name: "anki.add_from_model", arguments: { items: [{ Prompt: prompt, dedup_key: k }] } }),
    );
    await a.close();
    const b = await connect("/anki/sse", "sse");
    const again = dataOf<AddResult>(
      await b.callTool({ name: "anki.add_from_model", arguments: { items: [{ Prompt: prompt, dedup_key: k }] } }),
    );
    await b.close();
    expect(first.details[0]?.status).toBe("ok");
    expect(again.details[0]).toMatchObject({ status: "already_added", noteId: first.details[0]?.noteId });
    expect((await ankiState("anki")).notes.filter((n) => n.fields.Prompt === prompt)).toHaveLength(1);
  });

  it("after a timeout, the retry finds the note Anki created but we never recorded", async () => {
    const k = key("timeout");
    await fakeControl(FAKE, { slowActions: { addNotes: 900 } });
    const timedOut = await callAnki(
      FAKE,
      "anki.add_from_model",
      { items: [{ Prompt: "slow", dedup_key: k }] },
      { ANKI_TIMEOUT_MS: "400" },
    );
    expect(timedOut.isError).toBe(true);
    expect(textOf(timedOut)).toMatch(/^Adding notes failed: Anki did not answer within/);
    expect(dataOf<AddResult>(timedOut).details[0]?.error).toContain("call again with the same dedup_key to find out");
    expect(await notes()).toHaveLength(1); // Anki did add it

    await fakeControl(FAKE, { slowActions: {} });
    const retry = await add([{ Prompt: "slow", dedup_key: k }]);
    const [only] = await notes();
    expect(retry.details[0]).toMatchObject({ status: "already_added", noteId: only?.id });
    expect(await notes()).toHaveLength(1);
    // …and from then on without searching Anki again.
    expect((await add([{ Prompt: "slow", dedup_key: k }])).details[0]).toMatchObject({
      status: "already_added",
      noteId: only?.id,
    });
  });

  it("lets only one of two concurrent calls with the same key add the note", async () => {
    const k = key("race");
    await fakeControl(FAKE, { slowActions: { addNotes: 300 } });
    const [a, b] = await Promise.all([
      add([{ Prompt: "race", dedup_key: k }]),
      add([{ Prompt: "race", dedup_key: k }]),
    ]);
    const statuses = [a.details[0]?.status, b.details[0]?.status].sort();
    expect(statuses[1]).toBe("ok");
    expect(["already_added", "in_progress"]).toContain(statuses[0]);
    expect(await notes()).toHaveLength(1);
  });

  it("finds a note carrying the key's tag even when the ledger has no record of it", async () => {
    const k = key("tagged");
    const tag = `mcp-dedup::${(await sha1Hex(new TextEncoder().encode(k))).slice(0, 20)}`;
    const id = await ankiAction<number>(FAKE, "addNote", {
      note: { deckName: "Default", modelName: "Поля для ChatGPT", fields: { Prompt: "added elsewhere" }, tags: [tag] },
    });
    expect((await add([{ Prompt: "different text", dedup_key: k }])).details[0]).toMatchObject({
      status: "already_added",
      noteId: id,
    });
  });

  it("adds again when the user deleted the note (there is no second note)", async () => {
    const k = key("deleted");
    const first = await add([{ Prompt: "to delete", dedup_key: k }]);
    await ankiAction(FAKE, "deleteNotes", { notes: [first.details[0]?.noteId] });
    const again = await add([{ Prompt: "to delete", dedup_key: k }]);
    expect(again.details[0]?.status).toBe("ok");
    expect(again.details[0]?.noteId).not.toBe(first.details[0]?.noteId);
    expect(await notes()).toHaveLength(1);
  });

  it("frees the key when the note was not added, so a corrected retry works", async () => {
    const k = key("fix");
    expect((await add([{ Prompt: "", dedup_key: k }])).details[0]?.status).toBe("error");
    expect((await add([{ Prompt: "fixed", dedup_key: k }])).details[0]?.status).toBe("ok");
  });

  it("treats the same key twice in one call as one note", async () => {
    const k = key("twice");
    const out = await add([
      { Prompt: "first", dedup_key: k },
      { Prompt: "second", dedup_key: k },
    ]);
    expect(out.details.map((d) => d.status)).toEqual(["ok", "already_added"]);
    expect(out.details[1]?.noteId).toBe(out.details[0]?.noteId);
    expect(await notes()).toHaveLength(1);
  });

  it("needs the ledger binding only for dedup_key: plain notes still work without it", async () => {
    const { ANKI_DEDUP: _ledger, ...bindings } = env;
    const ctx = toolContext({ ANKI_CONNECT_URL: fakeUrl(FAKE) }, { bindings: bindings as Env });
    const reg = new ToolRegistry([ankiFamily]);
    const tool = reg.get("anki.add_from_model");
    if (!tool) throw new Error("tool missing");
    const plain = await reg.call(tool, { items: [{ Prompt: "no ledger" }] }, ctx);
    expect(dataOf<AddResult>(plain.result).added).toBe(1);
    const keyed = await reg.call(tool, { items: [{ Prompt: "keyed", dedup_key: key("nobinding") }] }, ctx);
    expect(keyed.result.isError).toBe(true);
    expect(textOf(keyed.result)).toMatch(/^dedup_key needs the ANKI_DEDUP Durable Object binding/);
  });

  it("applies to anki.add_notes as well", async () => {
    const k = key("low");
    const args = { notes: [{ fields: { Prompt: "low level" }, dedup_key: k }] };
    const first = dataOf<AddResult>(await callAnki(FAKE, "anki.add_notes", args));
    const again = dataOf<AddResult>(await callAnki(FAKE, "anki.add_notes", args));
    expect(again.details[0]).toMatchObject({ status: "already_added", noteId: first.details[0]?.noteId });
  });
});
