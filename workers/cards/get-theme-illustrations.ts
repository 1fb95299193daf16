/**
 * @module `get_theme_illustrations` (spec 004): artworks of several cards of one theme
 * (archetype), each as an image block after a text line naming the card.
 */
import { z } from "zod";
import { ToolError, errorMessage } from "../../shared/errors";
import { toBase64 } from "../../shared/images/encode";
import type { ContentBlock } from "../../shared/tools/define-tool";
import { defineTool } from "../../shared/tools/define-tool";
import { IMAGE_BUDGET, type Artwork, artworkFor, fitBudget } from "./artwork";
import { CardApi } from "./client";
import { findTheme, monstersFirst } from "./lookup";

const MAX_LIMIT = 10;

const Output = z.object({
  theme: z.string().describe("The theme as found (archetype spelling when it is one)"),
  match: z.enum(["archetype", "name"]).describe("archetype, or cards whose name contains the theme"),
  total_found: z.number().int().describe("Cards of the theme found (name matches: at most 50)"),
  illustrations: z
    .array(
      z.object({
        card_name: z.string(),
        card_id: z.number().int(),
        image_id: z.number().int(),
        mimeType: z.string(),
        width: z.number().int().optional(),
        height: z.number().int().optional(),
      }),
    )
    .describe("One entry per image block, in the same order"),
  skipped: z.array(z.object({ card_name: z.string(), reason: z.string() })).optional(),
});

export const getThemeIllustrations = defineTool({
  name: "get_theme_illustrations",
  title: "Theme illustrations",
  description:
    "Official artworks of several Yu-Gi-Oh! cards of one theme (archetype), from YGOPRODeck, as images " +
    "with their card names; monsters first. Pass the English theme name: translate first " +
    "(ブルーアイズ → Blue-Eyes, ブラック・マジシャン → Dark Magician). If nothing matches, the error lists similar themes.",
  input: z.strictObject({
    theme: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(80)
      .describe('English theme (archetype) name, e.g. "Blue-Eyes", "Dark Magician"'),
    limit: z.number().int().min(1).max(MAX_LIMIT).default(5).describe(`How many artworks (1–${MAX_LIMIT})`),
  }),
  output: Output,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
  handler: async ({ theme, limit }, ctx) => {
    const api = new CardApi(ctx);
    const found = await findTheme(api, theme);
    const chosen = monstersFirst(found.cards).slice(0, limit);
    let done = 0;
    const settled = await Promise.allSettled(
      chosen.map(async (card) => {
        const art = await artworkFor(api, ctx, card);
        await ctx.progress({ progress: ++done, total: chosen.length, message: card.name });
        return art;
      }),
    );
    const arts: Artwork[] = [];
    const skipped: { card_name: string; reason: string }[] = [];
    settled.forEach((s, i) => {
      if (s.status === "fulfilled") arts.push(s.value);
      else skipped.push({ card_name: chosen[i]?.name ?? "?", reason: errorMessage(s.reason) });
    });
    if (arts.length === 0) {
      throw new ToolError(
        `No artwork of theme "${found.theme}" could be fetched: ${skipped[0]?.reason ?? "none listed"}`,
        {
          data: { skipped },
        },
      );
    }
    const fitted = fitBudget(arts, IMAGE_BUDGET);
    const data: z.infer<typeof Output> = {
      theme: found.theme,
      match: found.match,
      total_found: found.cards.length,
      illustrations: fitted.map((a) => ({
        card_name: a.card.name,
        card_id: a.card.id,
        image_id: a.imageId,
        mimeType: a.mimeType,
        ...(a.width && a.height ? { width: a.width, height: a.height } : {}),
      })),
    };
    if (skipped.length > 0) data.skipped = skipped;
    const how = found.match === "archetype" ? "archetype" : "cards whose name contains it";
    const lines = fitted.map((a, i) => `${i + 1}. ${a.card.name}`);
    const missing = skipped.length > 0 ? `\nNot fetched: ${skipped.map((s) => s.card_name).join(", ")}.` : "";
    const content: ContentBlock[] = [
      {
        type: "text",
        text: `Theme "${found.theme}" (${how}; ${found.cards.length} cards, showing ${fitted.length}):\n${lines.join("\n")}${missing}`,
      },
    ];
    fitted.forEach((a, i) => {
      content.push({ type: "text", text: `${i + 1}. ${a.card.name}` });
      content.push({ type: "image", data: toBase64(a.bytes), mimeType: a.mimeType });
    });
    return { content, structuredContent: data };
  },
});
