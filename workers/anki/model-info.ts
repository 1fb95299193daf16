/** @module `anki.model_info` (spec 000): fields, card templates and CSS of a note type, in one request. */
import { z } from "zod";
import { ToolError } from "../../shared/errors";
import { defineTool } from "../../shared/tools/define-tool";
import { dataResult } from "../../shared/tools/results";
import { AnkiClient, unwrap } from "./client";
import { modelOf } from "./defaults";
import { modelArg } from "./schemas";

export const modelInfo = defineTool({
  name: "anki.model_info",
  title: "Anki: model info",
  description:
    "Get the current fields (in order), card templates (Front/Back per card) and CSS of an Anki note type (model). " +
    "Call it before adding notes to learn the field names.",
  input: z.object({ model: modelArg }),
  output: z.object({
    model: z.string(),
    fields: z.array(z.string()),
    templates: z.record(z.string(), z.object({ Front: z.string(), Back: z.string() })),
    styling: z.string(),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
  handler: async (args, ctx) => {
    const model = modelOf(args.model, ctx.config);
    const client = new AnkiClient(ctx.config, ctx.fetch, ctx.signal);
    const params = { modelName: model };
    const [fields, templates, styling, names] = await client.multi(
      [
        { action: "modelFieldNames", params },
        { action: "modelTemplates", params },
        { action: "modelStyling", params },
        { action: "modelNames" },
      ],
      { read: true },
    );
    if (fields && !fields.ok && fields.error.startsWith("model was not found")) {
      const known = names?.ok && Array.isArray(names.result) ? names.result.map(String) : [];
      throw new ToolError(
        `Anki has no note type "${model}" (${fields.error}).${known.length ? ` Note types: ${known.join(", ")}.` : ""}`,
      );
    }
    return dataResult({
      model,
      fields: unwrap<string[]>("modelFieldNames", fields),
      templates: unwrap<Record<string, { Front: string; Back: string }>>("modelTemplates", templates),
      styling: unwrap<{ css: string }>("modelStyling", styling).css,
    });
  },
});
