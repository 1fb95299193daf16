/**
 * @module `qdrant-store`: save a text (with section and source, the payload keys qdrant-find
 * reads) into Qdrant, split into bounded chunks; creates the collection with the configured
 * vector name and the embedder's size when it is missing. Ids derive from source, section and
 * text, so storing the same text twice changes nothing.
 */
import { z } from "zod";
import { defineTool } from "../../shared/tools/define-tool";
import { dataResult, errorResult } from "../../shared/tools/results";
import { chunkPlain } from "./chunk";
import { ragDeps } from "./deps";
import { contentHash, stableId } from "./ids";
import { embedText, writePoints } from "./ingest";
import { failureReason } from "./qdrant-find";

export const qdrantStore = defineTool({
  name: "qdrant-store",
  title: "Save to the knowledge base",
  description:
    "Store a text in the Qdrant knowledge base so qdrant-find can find it later. Long texts are split into chunks. Storing the same text again does not duplicate it.",
  input: z.strictObject({
    content: z
      .string()
      .max(200_000)
      .describe("The text to remember (plain text or Markdown, up to 200 000 characters)"),
    section: z.string().trim().default("").describe("Title of the passage, shown in search results"),
    source: z.string().trim().default("qdrant-store").describe("Where it comes from: a URL, file path or note name"),
    collection: z.string().trim().min(1).optional().describe("Qdrant collection (default: QDRANT_COLLECTION)"),
  }),
  output: z.object({
    collection: z.string(),
    createdCollection: z.boolean(),
    ids: z.array(z.string()),
    chunks: z.number().int(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  handler: async (args, ctx) => {
    const content = args.content.trim();
    if (!content) return errorResult("Укажите content для сохранения.");
    const collection = args.collection ?? ctx.config.QDRANT_COLLECTION;
    const chunks = chunkPlain(content, args.section, ctx.config.CHUNK_MAX_CHARS);
    const deps = ragDeps(ctx);
    try {
      const items = await Promise.all(
        chunks.map(async (c) => ({
          id: await stableId(args.source, c.section, await contentHash(c.content)),
          text: embedText(c),
          payload: { section: c.section, source: args.source, content: c.content },
        })),
      );
      const { createdCollection } = await writePoints(
        {
          store: deps.store,
          embedder: deps.embedder,
          collection,
          using: ctx.config.QDRANT_VECTOR_NAME,
          batchSize: ctx.config.EMBEDDING_BATCH_SIZE,
        },
        items,
      );
      const ids = items.map((i) => i.id);
      const text = `Сохранено в коллекцию «${collection}»: ${ids.length} фрагм. (раздел: ${args.section || "—"}, источник: ${args.source}).${createdCollection ? " Коллекция создана." : ""}`;
      return dataResult({ collection, createdCollection, ids, chunks: ids.length }, text);
    } catch (err) {
      return errorResult(`Ошибка сохранения: ${failureReason(err, ctx)}`);
    }
  },
});
