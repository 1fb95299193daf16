/**
 * @module `anki.note_info` (spec 000): notes by id, in request order, null for a missing note
 * (AnkiConnect answers {} for it). The deck comes from each note's first card (cardsInfo).
 */
import { z } from "zod";
import { defineTool } from "../../shared/tools/define-tool";
import { dataResult } from "../../shared/tools/results";
import { AnkiClient } from "./client";

interface RawNote {
  noteId?: number;
  modelName?: string;
  tags?: string[];
  fields?: Record<string, { value: string; order: number }>;
  cards?: number[];
}

const noteInfoSchema = z.object({
  noteId: z.number().int(),
  modelName: z.string().nullable(),
  deckName: z.string().nullable(),
  tags: z.array(z.string()),
  fields: z.record(z.string(), z.string()),
  cards: z.array(z.number().int()),
});

/** Field values in the model's order. */
function fieldValues(raw: RawNote["fields"]): Record<string, string> {
  const entries = Object.entries(raw ?? {}).toSorted(([, a], [, b]) => a.order - b.order);
  return Object.fromEntries(entries.map(([k, v]) => [k, v.value]));
}

export const noteInfo = defineTool({
  name: "anki.note_info",
  title: "Anki: note info",
  description:
    "Get Anki notes by id: model, deck, tags, field values and card ids. Returns {notes: [...]} in the order " +
    "of noteIds, with null where a note does not exist.",
  input: z.object({
    noteIds: z.array(z.coerce.number().int().positive()).min(1).max(1000).describe("Note ids, e.g. [1700000000000]"),
  }),
  output: z.object({ notes: z.array(noteInfoSchema.nullable()) }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
  handler: async ({ noteIds }, ctx) => {
    const client = new AnkiClient(ctx.config, ctx.fetch, ctx.signal);
    const raw = await client.invoke<RawNote[]>("notesInfo", { notes: noteIds }, { read: true });
    const found = (Array.isArray(raw) ? raw : []).map((n) => (n && typeof n.noteId === "number" ? n : undefined));
    const firstCards = found.flatMap((n) => (n?.cards?.[0] !== undefined ? [n.cards[0]] : []));
    const deckByCard = new Map<number, string>();
    if (firstCards.length > 0) {
      const cards = await client.invoke<{ cardId: number; deckName?: string }[]>(
        "cardsInfo",
        { cards: firstCards },
        { read: true },
      );
      for (const c of Array.isArray(cards) ? cards : []) if (c?.deckName) deckByCard.set(c.cardId, c.deckName);
    }
    const notes = noteIds.map((_, i) => {
      const n = found[i];
      if (!n || n.noteId === undefined) return null;
      const first = n.cards?.[0];
      return {
        noteId: n.noteId,
        modelName: n.modelName ?? null,
        deckName: first === undefined ? null : (deckByCard.get(first) ?? null),
        tags: n.tags ?? [],
        fields: fieldValues(n.fields),
        cards: n.cards ?? [],
      };
    });
    return dataResult({ notes });
  },
});
