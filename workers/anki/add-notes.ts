/**
 * @module `anki.add_notes` (spec 000): the low-level add. No model lookup: field names go to Anki
 * as given. An image whose target_field is not one of the note's fields is an error before
 * anything is sent (the seed's ValueError), so nothing is half-written.
 */
import { z } from "zod";
import { ToolError } from "../../shared/errors";
import { defineTool } from "../../shared/tools/define-tool";
import { dataResult } from "../../shared/tools/results";
import { startAdd } from "./add-pipeline";
import { resolveTargets } from "./fields";
import { buildNote } from "./note-builder";
import { addNotesResult, deckArg, modelArg, noteInput } from "./schemas";

export const addNotes = defineTool({
  name: "anki.add_notes",
  title: "Anki: add notes (low level)",
  description:
    "Add notes whose fields already use the model's exact field names (no model lookup; see anki.model_info). " +
    "An image target_field that is not one of the note's fields fails the whole call before anything is sent. " +
    "Supports images, data:image URLs in fields and dedup_key like anki.add_from_model. Returns {added, skipped, details[]}.",
  input: z.object({
    deck: deckArg.describe("Deck name (must exist). Default: ANKI_DEFAULT_DECK, else Default"),
    model: modelArg,
    notes: z.array(noteInput).min(1).max(100).describe("Notes to add (1–100)"),
  }),
  output: addNotesResult,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  handler: async (args, ctx) => {
    // The seed's ValueError: check every image target first, so a bad one sends nothing at all.
    const targets = args.notes.map((note, i) => {
      const names = Object.keys(note.fields);
      const r = resolveTargets(note.images, names, undefined);
      if (r.bad) {
        throw new ToolError(
          `notes[${i}].images[${r.bad.index}].target_field "${r.bad.target}" is not a field of this note ` +
            `(${names.join(", ") || "no fields"}); nothing was sent to Anki. Use the model's field names (anki.model_info).`,
        );
      }
      return r.targets;
    });
    const { deck, model, client, run } = startAdd(ctx, args.deck, args.model, args.notes);
    try {
      await run.read([]);
      await run.prepare(async (index, w) => {
        const note = args.notes[index];
        if (!note) throw new Error(`no note ${index}`);
        const parts = {
          fields: { ...note.fields },
          tags: note.tags,
          images: note.images,
          targets: targets[index] ?? [],
        };
        return buildNote(ctx, parts, w, `notes[${index}]`);
      });
      await run.add(deck, model, false);
      return dataResult(run.result());
    } finally {
      ctx.log.debug("anki requests", { tool: "anki.add_notes", requests: client.requests });
      await run.dedup.releaseAll("forget");
    }
  },
});
