/** anki.add_from_model and anki.add_notes: field mapping, defaults, deck creation, Anki's duplicate rule, round trips. */
import { beforeEach, describe, expect, it } from "vitest";
import { ankiAction, ankiRequests, ankiState, callAnki, dataOf, resetFake, textOf } from "../helpers/anki";
import { makePng } from "../helpers/images";
import { toBase64 } from "../../shared/images";

const FAKE = "anki_batch";
type Detail = {
  index: number;
  status: string;
  noteId?: number;
  warnings?: string[];
  messages?: string[];
  error?: string;
};
type AddResult = { added: number; skipped: number; details: Detail[] };
const add = (args: unknown, vars?: Record<string, string>) => callAnki(FAKE, "anki.add_from_model", args, vars);

describe("anki.add_from_model", () => {
  beforeEach(() => resetFake(FAKE));

  it("maps keys case-insensitively onto the model's fields, in the model's order", async () => {
    const res = await add({
      items: [
        { sources: "S", CONTEXT: "C", response: "R", prompt: "P" },
        { fields: { PROMPT: "P2", Response: "R2" }, sources: "S2" },
      ],
    });
    expect(dataOf<AddResult>(res)).toMatchObject({ added: 2, skipped: 0 });
    const notes = (await ankiState(FAKE)).notes;
    expect(notes.map((n) => [n.model, n.deck])).toEqual([
      ["Поля для ChatGPT", "Default"],
      ["Поля для ChatGPT", "Default"],
    ]);
    expect(Object.entries(notes[0]?.fields ?? {})).toEqual([
      ["Prompt", "P"],
      ["Response", "R"],
      ["Context", "C"],
      ["Sources", "S"],
    ]);
    expect(notes[1]?.fields).toEqual({ Prompt: "P2", Response: "R2", Context: "", Sources: "S2" });
  });

  it("reports unknown keys as warnings instead of dropping them silently", async () => {
    const out = dataOf<AddResult>(await add({ items: [{ Prompt: "P", Respnse: "typo" }] }));
    expect(out.details[0]).toMatchObject({ status: "ok", warnings: ["unknown_field"] });
    expect(out.details[0]?.messages?.[0]).toContain('"Respnse"');
  });

  it("uses ANKI_DEFAULT_DECK / ANKI_DEFAULT_MODEL, an empty variable counting as unset, and creates a missing deck", async () => {
    await add(
      { items: [{ Front: "F", Back: "B" }] },
      { ANKI_DEFAULT_DECK: "Языки::Немецкий", ANKI_DEFAULT_MODEL: "Basic" },
    );
    await add({ items: [{ Prompt: "P" }] }, { ANKI_DEFAULT_DECK: "  ", ANKI_DEFAULT_MODEL: "" });
    const s = await ankiState(FAKE);
    expect(s.decks).toEqual(expect.arrayContaining(["Языки", "Языки::Немецкий"]));
    expect(s.notes.map((n) => [n.model, n.deck])).toEqual([
      ["Basic", "Языки::Немецкий"],
      ["Поля для ChatGPT", "Default"],
    ]);
  });

  it("skips Anki duplicates without costing the other notes (AnkiConnect would roll the batch back)", async () => {
    await add({ items: [{ Prompt: "already there" }] });
    const out = dataOf<AddResult>(
      await add({ items: [{ Prompt: "new 1" }, { Prompt: "already there" }, { Prompt: "new 2" }, { Prompt: "" }] }),
    );
    expect(out.added).toBe(2);
    expect(out.skipped).toBe(2);
    expect(out.details.map((d) => d.status)).toEqual(["ok", "duplicate", "ok", "error"]);
    expect(out.details[1]?.error).toBe("cannot create note because it is a duplicate");
    expect(out.details[3]?.error).toBe("cannot create note because it is empty");
    expect((await ankiState(FAKE)).notes).toHaveLength(3);
  });

  it("recovers when two items of one call duplicate each other (the batch is refused, then added one by one)", async () => {
    const out = dataOf<AddResult>(await add({ items: [{ Prompt: "twin" }, { Prompt: "other" }, { Prompt: "twin" }] }));
    expect(out.details.map((d) => d.status)).toEqual(["ok", "ok", "duplicate"]);
    expect((await ankiState(FAKE)).notes.map((n) => n.fields.Prompt)).toEqual(["twin", "other"]);
  });

  it("stays within 5 requests on the longest path: new deck, dedup keys, images, and a refused batch", async () => {
    const png = toBase64(makePng(8, 8));
    const image = { image_base64: png, target_field: "Response", filename: "twin.png" };
    const items = [
      { Prompt: "twin", dedup_key: `twin-${crypto.randomUUID()}`, images: [image] },
      { Prompt: "other", images: [image] },
      { Prompt: "twin" },
    ];
    const out = dataOf<AddResult>(await add({ deck: "Neu", items }));
    expect(out.details.map((d) => d.status)).toEqual(["ok", "ok", "duplicate"]);
    expect(await ankiRequests(FAKE)).toBe(5);
  });

  it("works with the 2023 add-on (no canAddNotesWithErrorDetail, addNotes answers null for a failed note)", async () => {
    await resetFake(FAKE, { legacy: true });
    await ankiAction(FAKE, "addNote", {
      note: { deckName: "Default", modelName: "Basic", fields: { Front: "old" } },
    });
    const out = dataOf<AddResult>(await add({ model: "Basic", items: [{ Front: "old" }, { Front: "fresh" }] }));
    expect(out.details.map((d) => d.status)).toEqual(["duplicate", "ok"]);
    expect(out.details[0]?.error).toBe("cannot create note because it is a duplicate");
    expect((await ankiState(FAKE)).notes.map((n) => n.fields.Front)).toEqual(["old", "fresh"]);
  });

  it("names an unknown model clearly", async () => {
    const res = await add({ model: "Nope", items: [{ Front: "x" }] });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toBe(
      'Anki has no note type "Nope" (model was not found: Nope): check the name with anki.model_info, or create it in Anki.',
    );
  });

  it("refuses an empty items list before calling Anki", async () => {
    const res = await add({ items: [] });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/^Invalid arguments: items: /);
    expect(await ankiRequests(FAKE)).toBe(0);
  });

  it("adds 100 notes with 50 images in at most 5 AnkiConnect requests", async () => {
    const png = toBase64(makePng(40, 30));
    const items = Array.from({ length: 100 }, (_, i) => ({
      Prompt: `Q${i}`,
      Response: `A${i}`,
      dedup_key: `bulk-${crypto.randomUUID()}`,
      images: i % 2 === 0 ? [{ image_base64: png, target_field: "response", filename: `bulk-${i}.png` }] : [],
    }));
    const out = dataOf<AddResult>(await add({ items }));
    expect(out.added).toBe(100);
    const requests = await ankiRequests(FAKE);
    expect(requests).toBeLessThanOrEqual(5);
    expect(requests).toBe(4);
    expect(Object.keys((await ankiState(FAKE)).media)).toHaveLength(50);
  });

  it("makes a single note without dedup or images in 3 requests", async () => {
    await add({ items: [{ Prompt: "one" }] });
    expect(await ankiRequests(FAKE)).toBe(3);
  });
});

describe("anki.model_info", () => {
  it("defaults to ANKI_DEFAULT_MODEL, and to Поля для ChatGPT when the variable is empty", async () => {
    const basic = dataOf<{ model: string; fields: string[]; templates: object }>(
      await callAnki(FAKE, "anki.model_info", {}, { ANKI_DEFAULT_MODEL: "Basic (and reversed card)" }),
    );
    expect(basic.model).toBe("Basic (and reversed card)");
    expect(basic.fields).toEqual(["Front", "Back"]);
    expect(Object.keys(basic.templates)).toEqual(["Card 1", "Card 2"]);
    const fallback = dataOf<{ model: string }>(await callAnki(FAKE, "anki.model_info", {}, { ANKI_DEFAULT_MODEL: "" }));
    expect(fallback.model).toBe("Поля для ChatGPT");
  });

  it("takes one AnkiConnect request", async () => {
    await resetFake(FAKE);
    await callAnki(FAKE, "anki.model_info", { model: "Basic" });
    expect(await ankiRequests(FAKE)).toBe(1);
  });
});

describe("anki.add_notes", () => {
  beforeEach(() => resetFake(FAKE));

  it("sends field names as given, without a model lookup", async () => {
    const out = dataOf<AddResult>(
      await callAnki(FAKE, "anki.add_notes", {
        model: "Basic",
        notes: [{ fields: { Front: "f", Back: "b" }, tags: ["t"] }],
      }),
    );
    expect(out).toEqual({ added: 1, skipped: 0, details: [{ index: 0, status: "ok", noteId: expect.any(Number) }] });
    const actions = (await ankiState(FAKE)).received.map((e) => e.action);
    expect(actions).not.toContain("modelFieldNames");
    expect(actions).not.toContain("createDeck");
  });

  it("does not create a missing deck: the note says so", async () => {
    const out = dataOf<AddResult>(
      await callAnki(FAKE, "anki.add_notes", { deck: "Нет такой", notes: [{ fields: { Prompt: "p" } }] }),
    );
    expect(out.details[0]).toMatchObject({ status: "error", error: "deck was not found: Нет такой" });
  });

  it("fails before sending anything when an image's target_field is not a field of the note", async () => {
    const png = toBase64(makePng(8, 8));
    const res = await callAnki(FAKE, "anki.add_notes", {
      notes: [
        { fields: { Prompt: "ok" }, images: [{ image_base64: png, target_field: "prompt" }] },
        { fields: { Prompt: "p", Response: "r" }, images: [{ image_base64: png, target_field: "Bild" }] },
      ],
    });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toContain(
      'notes[1].images[0].target_field "Bild" is not a field of this note (Prompt, Response); nothing was sent to Anki',
    );
    expect(await ankiRequests(FAKE)).toBe(0);
  });
});
