/**
 * @module The fake AnkiConnect's collection: decks, models (incl. spec 000's "Поля для ChatGPT"),
 * notes, cards and media, with Anki's rules — duplicate check on the first field, createNote's exact
 * error strings, storeMediaFile's name normalisation and renaming, and a small search syntax.
 */
import { createHash } from "node:crypto";

export interface Model {
  fields: string[];
  templates: Record<string, { Front: string; Back: string }>;
  css: string;
}

export interface Note {
  id: number;
  model: string;
  deck: string;
  fields: Record<string, string>;
  tags: string[];
  cards: number[];
  mod: number;
}

const CHATGPT_CSS =
  '.card {\n  font-family: "Inter", "Segoe UI", sans-serif;\n  font-size: 22px;\n  text-align: left;\n  line-height: 1.5;\n}\n.prompt {\n  font-weight: 600;\n  font-size: 24px;\n  margin-bottom: 12px;\n}\n.context {\n  color: #4a5568;\n  font-style: italic;\n  margin-bottom: 16px;\n}\n.response {\n  color: #1a202c;\n  font-size: 22px;\n  margin-bottom: 12px;\n}\n.sources {\n  color: #2d3748;\n  font-size: 18px;\n  white-space: pre-wrap;\n}';

/** The models a fresh fake has. */
export function defaultModels(): Map<string, Model> {
  const basicCss =
    ".card {\n font-family: arial;\n font-size: 20px;\n text-align: center;\n color: black;\n background-color: white;\n}\n";
  return new Map<string, Model>([
    [
      "Basic",
      {
        fields: ["Front", "Back"],
        templates: { "Card 1": { Front: "{{Front}}", Back: "{{FrontSide}}\n\n<hr id=answer>\n\n{{Back}}" } },
        css: basicCss,
      },
    ],
    [
      "Basic (and reversed card)",
      {
        fields: ["Front", "Back"],
        templates: {
          "Card 1": { Front: "{{Front}}", Back: "{{FrontSide}}\n\n<hr id=answer>\n\n{{Back}}" },
          "Card 2": { Front: "{{Back}}", Back: "{{FrontSide}}\n\n<hr id=answer>\n\n{{Front}}" },
        },
        css: basicCss,
      },
    ],
    [
      "Поля для ChatGPT",
      {
        fields: ["Prompt", "Response", "Context", "Sources"],
        templates: {
          "Card 1": {
            Front:
              '<div class="prompt">{{Prompt}}</div>\n{{#Context}}<div class="context">{{Context}}</div>{{/Context}}\n{{tts de_DE voices=AwesomeTTS:Prompt}}',
            Back: '{{FrontSide}}\n<hr id="answer">\n<div class="response">{{Response}}</div>\n{{#Sources}}<div class="sources">{{Sources}}</div>{{/Sources}}',
          },
        },
        css: CHATGPT_CSS,
      },
    ],
  ]);
}

/** An error whose message AnkiConnect would put in `error`. */
export class AnkiFail extends Error {}

/** Anki's duplicate check key: the first field without HTML, media file names kept. */
function checksumText(v: string): string {
  return v
    .replace(/<img[^>]*?src=["']?([^"'>\s]+)[^>]*>/gi, " $1 ")
    .replace(/<[^>]*>/g, "")
    .replace(/&nbsp;/g, " ")
    .trim();
}

const BAD_NAME_CHARS = /[[\]<>:"/?*^\\|\u0000-\u001f\u007f]/g; // oxlint-disable-line no-control-regex
const DEVICE = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])$/i;

/** Anki's media name normalisation (rslib media/files.rs). */
export function normalizeMediaName(name: string): string {
  let n = name.normalize("NFC").replace(BAD_NAME_CHARS, "");
  const dot = n.lastIndexOf(".");
  const stem = dot > 0 ? n.slice(0, dot) : n;
  const ext = dot > 0 ? n.slice(dot) : "";
  if (DEVICE.test(stem)) n = `${stem}_${ext}`;
  while (Buffer.byteLength(n) > 120) n = n.slice(0, -1);
  return n;
}

/** An Anki search glob (`*` any run, `_` one character) as a case-insensitive RegExp. */
const glob = (s: string) =>
  new RegExp(
    `^${s
      .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*")
      .replace(/_/g, ".")}$`,
    "i",
  );

/** The collection state and Anki's rules over it. */
export class Collection {
  decks = new Map<string, number>([["Default", 1]]);
  models = defaultModels();
  notes = new Map<number, Note>();
  cards = new Map<number, { id: number; note: number; deck: string; ord: number }>();
  media = new Map<string, Buffer>();
  private nextId = 1_700_000_000_000;

  /** A fresh id (note ids from 1700000000000, like the seed's examples). */
  id(): number {
    return this.nextId++;
  }

  model(name: unknown): Model {
    const m = this.models.get(String(name));
    if (!m) throw new AnkiFail(`model was not found: ${String(name)}`);
    return m;
  }

  createDeck(name: string): number {
    for (const [k, id] of this.decks) if (k.toLowerCase() === name.toLowerCase()) return id;
    const parts = name.split("::");
    for (let i = 1; i < parts.length; i++) {
      const parent = parts.slice(0, i).join("::");
      if (!this.decks.has(parent)) this.decks.set(parent, this.id());
    }
    const id = this.id();
    this.decks.set(name, id);
    return id;
  }

  /** createNote's checks, in the add-on's order, returning the note to insert. */
  check(spec: unknown): Omit<Note, "id" | "cards" | "mod"> {
    const note = (spec ?? {}) as Record<string, unknown>;
    if (!("modelName" in note)) throw new AnkiFail("'modelName'");
    const model = this.model(note.modelName);
    if (!("deckName" in note)) throw new AnkiFail("'deckName'");
    const deck = String(note.deckName);
    if (![...this.decks.keys()].some((d) => d.toLowerCase() === deck.toLowerCase()))
      throw new AnkiFail(`deck was not found: ${deck}`);
    if (!("fields" in note)) throw new AnkiFail("'fields'");
    const given = (note.fields ?? {}) as Record<string, unknown>;
    const fields: Record<string, string> = {};
    for (const f of model.fields) {
      const key = Object.keys(given).find((k) => k.toLowerCase() === f.toLowerCase());
      fields[f] = key === undefined ? "" : String(given[key]);
    }
    const options = (note.options ?? {}) as Record<string, unknown>;
    const scopeOpts = (options.duplicateScopeOptions ?? {}) as Record<string, unknown>;
    for (const [obj, k] of [
      [options, "allowDuplicate"],
      [scopeOpts, "checkChildren"],
      [scopeOpts, "checkAllModels"],
    ] as const) {
      if (k in obj && typeof obj[k] !== "boolean") throw new AnkiFail(`option parameter "${k}" must be boolean`);
    }
    const first = checksumText(fields[model.fields[0] ?? ""] ?? "");
    if (first === "") throw new AnkiFail("cannot create note because it is empty");
    if (options.allowDuplicate !== true && this.isDuplicate(String(note.modelName), deck, first, options, scopeOpts)) {
      throw new AnkiFail("cannot create note because it is a duplicate");
    }
    const tags = Array.isArray(note.tags) ? note.tags.map(String) : [];
    return { model: String(note.modelName), deck, fields, tags };
  }

  private isDuplicate(
    modelName: string,
    deck: string,
    first: string,
    options: Record<string, unknown>,
    scope: Record<string, unknown>,
  ): boolean {
    const scopeDeck = typeof scope.deckName === "string" ? scope.deckName : deck;
    if (options.duplicateScope === "deck" && !this.decks.has(scopeDeck)) return false;
    for (const n of this.notes.values()) {
      if (scope.checkAllModels !== true && n.model !== modelName) continue;
      if (options.duplicateScope === "deck") {
        const inDeck = n.deck === scopeDeck || (scope.checkChildren === true && n.deck.startsWith(`${scopeDeck}::`));
        if (!inDeck) continue;
      }
      const m = this.models.get(n.model);
      if (checksumText(n.fields[m?.fields[0] ?? ""] ?? "") === first) return true;
    }
    return false;
  }

  /** Insert a checked note with one card per template. */
  insert(n: Omit<Note, "id" | "cards" | "mod">): number {
    const id = this.id();
    const model = this.model(n.model);
    const cards = Object.keys(model.templates).map((_, ord) => {
      const cid = this.id();
      this.cards.set(cid, { id: cid, note: id, deck: n.deck, ord });
      return cid;
    });
    this.notes.set(id, { ...n, id, cards, mod: Math.floor(Date.now() / 1000) });
    return id;
  }

  delete(ids: readonly number[]): void {
    for (const id of ids) {
      for (const c of this.notes.get(id)?.cards ?? []) this.cards.delete(c);
      this.notes.delete(id);
    }
  }

  /** storeMediaFile with Anki's naming: normalised; with deleteExisting false, a different file gets stem-<sha1>.ext. */
  store(filename: string, data: Buffer, deleteExisting: boolean): string {
    let name = normalizeMediaName(filename);
    const existing = this.media.get(name);
    if (existing && !deleteExisting && !existing.equals(data)) {
      const dot = name.lastIndexOf(".");
      const sha = createHash("sha1").update(data).digest("hex");
      name = dot > 0 ? `${name.slice(0, dot)}-${sha}${name.slice(dot)}` : `${name}-${sha}`;
    }
    this.media.set(name, data);
    return name;
  }

  /** A small subset of Anki's search: tag:, deck:, note:, nid:, Field:value, bare words, leading "-". */
  find(query: string): number[] {
    const terms = query.match(/-?"[^"]*"|-?\S+/g) ?? [];
    if (terms.length === 0) return [];
    const tests = terms.map((raw) => {
      const neg = raw.startsWith("-");
      const t = raw.replace(/^-/, "").replace(/^"|"$/g, "");
      const [head = "", ...rest] = t.split(":");
      const value = rest.join(":");
      let test: (n: Note) => boolean;
      if (head.toLowerCase() === "tag")
        test = (n) => n.tags.some((tag) => glob(value).test(tag) || glob(`${value}::*`).test(tag));
      else if (head.toLowerCase() === "deck") {
        const d = value === "current" ? "Default" : value;
        test = (n) => glob(d).test(n.deck) || glob(`${d}::*`).test(n.deck);
      } else if (head.toLowerCase() === "note") test = (n) => glob(value).test(n.model);
      else if (head.toLowerCase() === "nid") test = (n) => value.split(",").map(Number).includes(n.id);
      else if (rest.length > 0)
        test = (n) =>
          Object.entries(n.fields).some(([k, v]) => k.toLowerCase() === head.toLowerCase() && glob(value).test(v));
      else test = (n) => Object.values(n.fields).some((v) => v.toLowerCase().includes(t.toLowerCase()));
      return (n: Note) => test(n) !== neg;
    });
    return [...this.notes.values()].filter((n) => tests.every((f) => f(n))).map((n) => n.id);
  }
}
