/** @module `comfy.job_status`: progress of a ComfyUI job now, its result (previews + links) once finished. */
import { z } from "zod";
import { ToolError } from "../../shared/errors";
import { defineTool } from "../../shared/tools/define-tool";
import { isTerminal } from "./job";
import { jobStore } from "./job-store";
import { jobResult } from "./results";
import { waitForJob } from "./run";
import { findJob, placeText, queuePlace } from "./status";

/** The `comfy.job_status` tool. */
export const jobStatus = defineTool({
  name: "comfy.job_status",
  title: "ComfyUI: job status",
  description:
    "Статус задачи ComfyUI по job_id из ответа инструмента генерации: в очереди / выполняется / готово (превью + ссылки) / ошибка. Можно подождать до wait_seconds.",
  input: z.strictObject({
    job_id: z.string().trim().min(1, "must not be empty").describe("job_id (он же prompt_id) из ответа инструмента"),
    wait_seconds: z
      .number()
      .min(0)
      .max(50)
      .optional()
      .describe("Сколько секунд подождать завершения, если задача ещё идёт (0–50, по умолчанию 0)"),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
  handler: async ({ job_id, wait_seconds }, ctx) => {
    let rec = await findJob(ctx.bindings, job_id);
    if (!rec) throw new ToolError(`Задача ${job_id} не найдена: проверьте job_id из ответа инструмента ComfyUI.`);
    if (!isTerminal(rec.status) && wait_seconds) {
      const waitMs = Math.min(wait_seconds * 1000, ctx.config.COMFYUI_WAIT_MS);
      rec = (await waitForJob(jobStore(ctx.bindings, job_id), waitMs, ctx)) ?? rec;
    }
    const result = await jobResult(ctx.config, ctx.bindings.FILES, rec, ctx.baseUrl, false);
    if (isTerminal(rec.status)) return result;
    const place = await queuePlace(ctx.config, job_id, ctx.fetch);
    const first = result.content[0];
    if (first?.type === "text") first.text = `${placeText(place)}. ${first.text}`;
    result.structuredContent = { ...result.structuredContent, queue: place ?? { state: "unknown" } };
    return result;
  },
});
