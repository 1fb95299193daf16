/**
 * @module `anki.add_from_model` (spec 000): loads the model's fields, maps each item onto them
 * (case-insensitive, model order, unknown keys reported), creates the deck, stores media, and adds
 * what Anki accepts — honouring dedup_key — in at most five AnkiConnect requests.
 */
import { z } from "zod";
import { ToolError } from "../../shared/errors";
import { defineTool } from "../../shared/tools/define-tool";
import { dataResult } from "../../shared/tools/results";
import { startAdd } from "./add-pipeline";
import { unwrap } from "./client";
import { itemFieldEntries, normalizeFields, resolveTargets } from "./fields";
import { buildNote } from "./note-builder";
import { addNotesResult, deckArg, modelArg, modelItem } from "./schemas";

export const addFromModel = defineTool({
  name: "anki.add_from_model",
  title: "Anki: add notes (model-aware)",
  description:
    "Add notes to an Anki deck, fitted to the note type's current fields: keys are matched to field names in any " +
    "letter case and put in the model's order (Prompt → Response → Context → Sources for the default model). " +
    "Each item is {fields, tags, images, dedup_key} or flat {Prompt: ..., Response: ..., tags, images, dedup_key}. " +
    "Creates the deck if missing; images (base64 or URL) and data:image URLs in fields are stored as media. " +
    "dedup_key makes retries safe. Returns {added, skipped, details[]} with one detail per item.",
  input: z.object({
    deck: deckArg,
    model: modelArg,
    items: z.array(modelItem).min(1).max(100).describe("Notes to add (1–100)"),
  }),
  output: addNotesResult,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  handler: async (args, ctx) => {
    const { deck, model, client, run } = startAdd(ctx, args.deck, args.model, args.items);
    try {
      const [fieldsOut, decksOut] = await run.read([
        { action: "modelFieldNames", params: { modelName: model } },
        { action: "deckNames" },
      ]);
      if (fieldsOut && !fieldsOut.ok && fieldsOut.error.startsWith("model was not found")) {
        throw new ToolError(
          `Anki has no note type "${model}" (${fieldsOut.error}): check the name with anki.model_info, or create it in Anki.`,
        );
      }
      const modelFields = unwrap<string[]>("modelFieldNames", fieldsOut);
      const decks = unwrap<string[]>("deckNames", decksOut);
      await run.prepare(async (index, w) => {
        const item = args.items[index];
        if (!item) throw new Error(`no item ${index}`);
        const fields = normalizeFields(itemFieldEntries(item), modelFields, w);
        const { targets } = resolveTargets(item.images, modelFields, w);
        return buildNote(ctx, { fields, tags: item.tags, images: item.images, targets }, w, `items[${index}]`);
      });
      await run.add(deck, model, !decks.includes(deck));
      return dataResult(run.result());
    } finally {
      ctx.log.debug("anki requests", { tool: "anki.add_from_model", requests: client.requests });
      await run.dedup.releaseAll("forget");
    }
  },
});
