/**
 * @module The add path shared by anki.add_from_model and anki.add_notes, in a constant number of
 * AnkiConnect requests whatever the batch size:
 *   A. one read `multi`: the tool's own reads + dedup checks          (skipped when empty)
 *   B. one `multi`: createDeck (if asked) + canAddNotesWithErrorDetail (Anki's duplicate rule)
 *   C. one `multi`: storeMediaFile for the notes that can be added       (skipped without media)
 *   D. one `addNotes` with only those notes; if Anki still refuses the batch (2025 AnkiConnect
 *      rolls the whole batch back), one `multi` of addNote gives each note its own outcome.
 */
import { ToolError, errorMessage } from "../../shared/errors";
import type { ToolContext } from "../../shared/tools/context";
import { type AnkiAction, type AnkiOutcome, AnkiClient, AnkiError, unwrap } from "./client";
import { deckOf, modelOf } from "./defaults";
import { DedupSession, type KeyVerdict } from "./dedup";
import { Warnings, cleanTags } from "./fields";
import type { MediaFile } from "./media";
import { ImageError } from "./media-fetch";
import type { AddNotesResult, NoteDetail } from "./schemas";

const DUPLICATE = "cannot create note because it is a duplicate";
/** Notes prepared at once (each may fetch and decode an image; Workers have 128 MB). */
const PREPARE_CONCURRENCY = 4;

/** A note ready to send: final fields (media names already in place), tags, files to store. */
export interface PreparedNote {
  fields: Record<string, string>;
  tags: string[];
  media: MediaFile[];
}

interface Slot {
  index: number;
  dedupKey?: string;
  detail: NoteDetail;
  warnings: Warnings;
  note?: PreparedNote;
  /** Index of the earlier item with the same dedup_key. */
  follows?: number;
}

/** One add call: per-item details, dedup and the A–D requests. */
export class AddRun {
  readonly dedup: DedupSession;
  private readonly slots: Slot[];
  private verdicts = new Map<string, KeyVerdict>();

  constructor(
    private readonly ctx: ToolContext,
    private readonly client: AnkiClient,
    items: readonly { dedupKey?: string | undefined }[],
  ) {
    // The binding may be missing in an old deployment; only dedup_key needs it.
    const ns = (ctx.bindings as Partial<Env>).ANKI_DEDUP;
    this.dedup = new DedupSession(ns, 5 * ctx.config.ANKI_TIMEOUT_MS + 30_000);
    const firstByKey = new Map<string, number>();
    this.slots = items.map((item, index) => {
      const slot: Slot = { index, detail: { index, status: "error" }, warnings: new Warnings() };
      if (item.dedupKey !== undefined) {
        slot.dedupKey = item.dedupKey;
        slot.detail.dedup_key = item.dedupKey;
        const first = firstByKey.get(item.dedupKey);
        if (first === undefined) firstByKey.set(item.dedupKey, index);
        else slot.follows = first;
      }
      return slot;
    });
  }

  /** Request A: claim dedup keys, then send `toolReads` + dedup checks in one read `multi`. */
  async read(toolReads: readonly AnkiAction[]): Promise<AnkiOutcome[]> {
    await this.dedup.claim(
      this.slots.flatMap((s) => (s.dedupKey !== undefined && s.follows === undefined ? [s.dedupKey] : [])),
    );
    const dedupReads = this.dedup.readActions();
    const all = [...toolReads, ...dedupReads];
    if (all.length === 0) return [];
    await this.ctx.progress({ progress: 1, total: 4, message: "Reading from Anki" });
    const out = await this.client.multi(all, { read: true });
    this.verdicts = await this.dedup.resolve(out.slice(toolReads.length));
    return out.slice(0, toolReads.length);
  }

  /** Items that still need a note (not skipped by dedup, not following an earlier item). */
  candidates(): number[] {
    return this.slots.filter((s) => s.follows === undefined && this.verdictOf(s).kind === "add").map((s) => s.index);
  }

  private verdictOf(s: Slot): KeyVerdict {
    return s.dedupKey === undefined ? { kind: "add" } : (this.verdicts.get(s.dedupKey) ?? { kind: "add" });
  }

  /**
   * Prepare candidates (fields, media), a few at a time so a batch of large images never sits in
   * memory at once; an ImageError fails only its own item.
   */
  async prepare(build: (index: number, w: Warnings) => Promise<PreparedNote>): Promise<void> {
    const queue = this.candidates();
    const worker = async () => {
      for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
        const s = this.slots[i];
        if (!s) continue;
        try {
          const note = await build(i, s.warnings);
          const tag = s.dedupKey === undefined ? undefined : this.dedup.tags.get(s.dedupKey);
          s.note = { ...note, tags: cleanTags(note.tags, tag) };
        } catch (err) {
          if (!(err instanceof ImageError)) throw err;
          s.detail.error = err.message;
        }
      }
    };
    await Promise.all(Array.from({ length: PREPARE_CONCURRENCY }, worker));
  }

  private payload(s: Slot, deck: string, model: string): Record<string, unknown> {
    return { deckName: deck, modelName: model, fields: s.note?.fields ?? {}, tags: s.note?.tags ?? [] };
  }

  /** Requests B–D for the prepared notes. */
  async add(deck: string, model: string, createDeck: boolean): Promise<void> {
    let ready = this.slots.filter((s) => s.note);
    if (ready.length === 0) return;
    // B. Deck + Anki's own duplicate/validity rule, so one bad note does not cost the others.
    await this.ctx.progress({ progress: 2, total: 4, message: "Checking notes" });
    const b: AnkiAction[] = createDeck ? [{ action: "createDeck", params: { deck } }] : [];
    b.push({ action: "canAddNotesWithErrorDetail", params: { notes: ready.map((s) => this.payload(s, deck, model)) } });
    const bOut = await this.client.multi(b);
    if (createDeck) unwrap("createDeck", bOut[0]);
    const check = bOut[b.length - 1];
    const legacy = check?.ok === false && check.error === "unsupported action";
    if (!legacy) {
      const verdicts = unwrap<{ canAdd: boolean; error?: string }[]>("canAddNotesWithErrorDetail", check);
      ready = ready.filter((s, j) => {
        const v = verdicts[j];
        if (v?.canAdd) return true;
        this.refuse(s, v?.error ?? "Anki cannot add this note");
        return false;
      });
    }
    // C. Media of the notes that will be added, each file once.
    await this.storeMedia(ready);
    ready = ready.filter((s) => s.note);
    if (ready.length === 0) return;
    // D. The notes themselves.
    await this.ctx.progress({ progress: 4, total: 4, message: "Adding notes" });
    await this.addReady(ready, deck, model, legacy);
  }

  private refuse(s: Slot, error: string): void {
    s.note = undefined;
    s.detail.status = error === DUPLICATE ? "duplicate" : "error";
    s.detail.error = error;
  }

  private async storeMedia(ready: Slot[]): Promise<void> {
    const files = new Map<string, MediaFile>();
    for (const s of ready) for (const f of s.note?.media ?? []) files.set(f.filename, f);
    if (files.size === 0) return;
    await this.ctx.progress({ progress: 3, total: 4, message: `Storing ${files.size} media file(s)` });
    const list = [...files.values()];
    const out = await this.client.multi(
      list.map((f) => ({ action: "storeMediaFile", params: { filename: f.filename, data: f.data } })),
    );
    const stored = new Map<string, { name?: string; error?: string }>();
    list.forEach((f, j) => {
      const o = out[j];
      if (o?.ok) stored.set(f.filename, { name: typeof o.result === "string" ? o.result : f.filename });
      else stored.set(f.filename, { error: o?.error ?? "no answer" });
    });
    for (const s of ready) {
      const note = s.note;
      if (!note) continue;
      const names: string[] = [];
      for (const f of note.media) {
        const r = stored.get(f.filename);
        if (r?.error !== undefined) {
          this.refuse(s, `could not store the image ${f.filename} in Anki: ${r.error}`);
          break;
        }
        const name = r?.name ?? f.filename;
        if (name !== f.filename) {
          for (const [k, v] of Object.entries(note.fields)) note.fields[k] = v.split(f.filename).join(name);
          s.warnings.add("media_renamed", `Anki stored ${f.filename} as ${name}`);
        }
        names.push(name);
      }
      if (s.note) s.detail.media = names;
    }
  }

  private async addReady(ready: Slot[], deck: string, model: string, legacy: boolean): Promise<void> {
    const notes = ready.map((s) => this.payload(s, deck, model));
    try {
      let ids: unknown[] | undefined;
      if (!legacy) {
        try {
          ids = await this.client.invoke<unknown[]>("addNotes", { notes });
        } catch (err) {
          // A refused batch was rolled back by AnkiConnect: nothing of it landed, so each note
          // can safely be tried on its own.
          if (!(err instanceof AnkiError)) throw err;
        }
      }
      if (ids) {
        ready.forEach((s, j) =>
          this.settle(s, typeof ids?.[j] === "number" ? { ok: true, result: ids[j] } : undefined),
        );
      } else {
        const out = await this.client.multi(notes.map((note) => ({ action: "addNote", params: { note } })));
        ready.forEach((s, j) => this.settle(s, out[j]));
      }
    } catch (err) {
      const msg = errorMessage(err);
      for (const s of ready) {
        s.detail.status = "error";
        s.detail.error =
          s.dedupKey === undefined
            ? `${msg}. The note may have been added anyway: check Anki before sending it again.`
            : `${msg}. The note may have been added anyway: call again with the same dedup_key to find out; it is never added twice.`;
      }
      await this.dedup.release(
        ready.flatMap((s) => (s.dedupKey === undefined ? [] : [s.dedupKey])),
        "unknown",
      );
      throw new ToolError(`Adding notes failed: ${msg}`, { data: this.result() });
    }
    await this.dedup.complete(
      ready.flatMap((s) =>
        s.dedupKey !== undefined && s.detail.noteId !== undefined ? [{ key: s.dedupKey, noteId: s.detail.noteId }] : [],
      ),
    );
  }

  private settle(s: Slot, o: AnkiOutcome | undefined): void {
    if (o?.ok && typeof o.result === "number") {
      s.detail.status = "ok";
      s.detail.noteId = o.result;
      delete s.detail.error;
    } else this.refuse(s, o && !o.ok ? o.error : "Anki did not add this note");
  }

  /** The AddNotesResult: one detail per item, in request order. */
  result(): AddNotesResult {
    const details = this.slots.map((s): NoteDetail => {
      const d: NoteDetail = { ...s.detail };
      const v = this.verdictOf(s);
      if (s.follows !== undefined) {
        const first = this.slots[s.follows]?.detail;
        if (first?.noteId !== undefined && (first.status === "ok" || first.status === "already_added")) {
          Object.assign(d, { status: "already_added", noteId: first.noteId });
        } else d.error = `same dedup_key as item ${s.follows}, which was not added`;
      } else if (v.kind === "exists") Object.assign(d, { status: "already_added", noteId: v.noteId });
      else if (v.kind === "in_progress") {
        Object.assign(d, {
          status: "in_progress",
          error: "another call is adding a note with this dedup_key right now; call again in a minute",
        });
      } else if (v.kind === "error") Object.assign(d, { status: "error", error: v.error });
      if (s.warnings.codes.length > 0)
        Object.assign(d, { warnings: [...s.warnings.codes], messages: [...s.warnings.messages] });
      return d;
    });
    const added = details.filter((d) => d.status === "ok").length;
    return { added, skipped: details.length - added, details };
  }
}

/** Everything one add call starts from: the deck and note type (defaults applied), the client, the run. */
export function startAdd(
  ctx: ToolContext,
  deckArg: string | undefined,
  modelArg: string | undefined,
  items: readonly { dedup_key?: string | undefined }[],
): { deck: string; model: string; client: AnkiClient; run: AddRun } {
  const client = new AnkiClient(ctx.config, ctx.fetch, ctx.signal);
  const run = new AddRun(
    ctx,
    client,
    items.map((i) => ({ dedupKey: i.dedup_key })),
  );
  return { deck: deckOf(deckArg, ctx.config), model: modelOf(modelArg, ctx.config), client, run };
}
