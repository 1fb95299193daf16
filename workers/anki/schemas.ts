/** @module Input and output schemas shared by the Anki tools (spec 000: ImageSpec, NoteInput, AddNotesResult). */
import { z } from "zod";

/** A field value: text (numbers and booleans are written as text). */
export const fieldValue = z
  .union([z.string(), z.number(), z.boolean()])
  .transform((v) => String(v))
  .describe("Field text (HTML allowed; data:image/...;base64 values are stored as media)");

/** ImageSpec of spec 000; `url` is accepted as an alias of `image_url`. */
export const imageSpec = z
  .object({
    image_base64: z
      .string()
      .optional()
      .describe("Image bytes as base64 (or a data:image/...;base64 URL). Takes priority over image_url."),
    image_url: z.string().optional().describe("http(s) URL to fetch the image from, when image_base64 is not given"),
    url: z.string().optional().describe("Alias of image_url"),
    target_field: z
      .string()
      .trim()
      .min(1)
      .default("Back")
      .describe("Field that receives the <img> (any letter case). Default: Back"),
    filename: z.string().trim().min(1).optional().describe("Media file name in Anki. Default: a UUID + .jpg"),
    max_side: z
      .number()
      .int()
      .min(16)
      .max(8192)
      .default(768)
      .describe("Longest side in pixels; larger images are resized and re-encoded as JPEG (quality 85)"),
  })
  .refine((i) => i.image_base64 !== undefined || i.image_url !== undefined || i.url !== undefined, {
    message: "give image_base64 or image_url (alias url)",
  });

export type ImageSpec = z.output<typeof imageSpec>;

const tags = z.array(z.string().trim().min(1)).default([]).describe("Note tags");
const images = z.array(imageSpec).default([]).describe("Images to store and show in a field");
const dedupKey = z
  .string()
  .trim()
  .min(1)
  .max(256)
  .optional()
  .describe("Idempotency key: a note added with this key is never added again (retries, timeouts, restarts)");

/** NoteInput of spec 000 (low level: `fields` must use the model's field names). */
export const noteInput = z.object({
  fields: z.record(z.string(), fieldValue).describe("Field name → text, e.g. {Prompt, Response, Context, Sources}"),
  tags,
  images,
  dedup_key: dedupKey,
});

export type NoteInput = z.output<typeof noteInput>;

/** An add_from_model item: a NoteInput, or a flat object whose other keys are field names. */
export const modelItem = z
  .object({
    fields: z
      .record(z.string(), fieldValue)
      .optional()
      .describe("Field name → text (any letter case); or put field names at the top level instead"),
    tags,
    images,
    dedup_key: dedupKey,
  })
  .catchall(fieldValue)
  .describe("{fields, tags, images, dedup_key}, or flat: {Prompt: ..., Response: ..., tags, images, dedup_key}");

export type ModelItem = z.output<typeof modelItem>;

/** The `deck` argument (spec 000 default: ANKI_DEFAULT_DECK, else "Default"). */
export const deckArg = z
  .string()
  .trim()
  .optional()
  .describe("Deck name; created if missing. Default: ANKI_DEFAULT_DECK, else Default");
/** The `model` argument (spec 000 default: ANKI_DEFAULT_MODEL, else "Поля для ChatGPT"). */
export const modelArg = z
  .string()
  .trim()
  .optional()
  .describe("Note type (model) name. Default: ANKI_DEFAULT_MODEL, else Поля для ChatGPT");

/** One entry of AddNotesResult.details. */
export const noteDetail = z.object({
  index: z.number().int(),
  status: z.enum(["ok", "already_added", "in_progress", "duplicate", "error"]),
  noteId: z.number().int().optional(),
  dedup_key: z.string().optional(),
  warnings: z.array(z.string()).optional(),
  messages: z.array(z.string()).optional(),
  error: z.string().optional(),
  media: z.array(z.string()).optional(),
});

export type NoteDetail = z.output<typeof noteDetail>;

/** AddNotesResult of spec 000. */
export const addNotesResult = z.object({
  added: z.number().int(),
  skipped: z.number().int(),
  details: z.array(noteDetail),
});

export type AddNotesResult = z.output<typeof addNotesResult>;
