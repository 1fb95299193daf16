/** @module `get_card_illustration` (spec 004): the official artwork of one card, as an MCP image block. */
import { z } from "zod";
import { toBase64 } from "../../shared/images/encode";
import { defineTool } from "../../shared/tools/define-tool";
import { imageBlock } from "../../shared/tools/results";
import { IMAGE_BUDGET, artworkFor, fitBudget } from "./artwork";
import { CardApi } from "./client";
import { findCard } from "./lookup";

const Output = z.object({
  card_name: z.string().describe("The card's English name as YGOPRODeck spells it"),
  card_id: z.number().int().describe("Passcode"),
  image_id: z.number().int().describe("Artwork id"),
  mimeType: z.string().describe("MIME type of the image block"),
  width: z.number().int().optional(),
  height: z.number().int().optional(),
  match: z.enum(["exact", "fuzzy", "id"]).describe("How the name was matched"),
  archetype: z.string().optional(),
  ygoprodeck_url: z.string().optional(),
});

export const getCardIllustration = defineTool({
  name: "get_card_illustration",
  title: "Card illustration",
  description:
    "Official artwork (cropped, no card frame) of one Yu-Gi-Oh! card, from YGOPRODeck, as an image. " +
    "Pass the English card name: translate first (ブルーアイズ・ホワイト・ドラゴン → Blue-Eyes White Dragon). " +
    "Close spellings are matched; if nothing matches, the error lists similar names.",
  input: z.strictObject({
    card_name: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(120)
      .describe('English card name, e.g. "Blue-Eyes White Dragon", "Dark Magician"'),
  }),
  output: Output,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
  handler: async ({ card_name }, ctx) => {
    const api = new CardApi(ctx);
    const { card, match } = await findCard(api, card_name);
    const fetched = await artworkFor(api, ctx, card);
    const [art = fetched] = fitBudget([fetched], IMAGE_BUDGET);
    const data: z.infer<typeof Output> = {
      card_name: card.name,
      card_id: card.id,
      image_id: art.imageId,
      mimeType: art.mimeType,
      match,
    };
    if (art.width && art.height) Object.assign(data, { width: art.width, height: art.height });
    if (card.archetype) data.archetype = card.archetype;
    if (card.ygoprodeck_url) data.ygoprodeck_url = card.ygoprodeck_url;
    const found = match === "fuzzy" ? `Closest match for "${card_name}": ` : "";
    const dims = art.width && art.height ? `${art.width}×${art.height} ` : "";
    const format = art.mimeType.replace("image/", "").toUpperCase();
    return {
      content: [
        { type: "text", text: `${found}${card.name} — official artwork (${dims}${format}, YGOPRODeck).` },
        imageBlock(toBase64(art.bytes), art.mimeType),
      ],
      structuredContent: data,
    };
  },
});
