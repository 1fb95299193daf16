/**
 * @module What a caller sees of a job: one view (status, values, signed links, error) used by the
 * generated tools, comfy.job_status and GET /comfy/jobs/{id}; finished results inline previews
 * while the whole result stays under 1 MiB.
 */
import type { Config } from "../../shared/config";
import { toBase64 } from "../../shared/images";
import type { ContentBlock, ToolResult } from "../../shared/tools/define-tool";
import { publicBase, signFileUrl } from "./files";
import type { JobRecord } from "./job";

/** The whole result (JSON) must stay below 1 MiB; previews get what the text leaves. */
const RESULT_LIMIT = 1024 * 1024;
const TEXT_RESERVE = 64 * 1024;

/** A job as reported to callers. */
export interface JobView extends Record<string, unknown> {
  job_id: string;
  prompt_id: string;
  tool: string;
  status: JobRecord["status"];
  status_url: string;
  elapsed_s: number;
  values: Record<string, unknown>;
  generated: string[];
  outputs: { node_id: string; filename: string; url: string; mime_type: string; size_bytes: number }[];
  error?: JobRecord["error"];
  links_expire_at?: string;
  completed_at?: string;
}

/** Build the view of `rec` with freshly signed links. */
export async function jobView(config: Config, rec: JobRecord, fallbackBase: string): Promise<JobView> {
  const base = publicBase(config, rec.baseUrl || fallbackBase);
  const now = Date.now();
  const end = rec.status === "pending" ? now : (rec.completedAt ?? rec.updatedAt);
  const view: JobView = {
    job_id: rec.id,
    prompt_id: rec.id,
    tool: rec.tool,
    status: rec.status,
    status_url: `${base}/comfy/jobs/${rec.id}`,
    elapsed_s: Math.max(0, Math.round((end - rec.createdAt) / 100) / 10),
    values: rec.values,
    generated: rec.generated,
    outputs: await Promise.all(
      rec.outputs.map(async (o) => ({
        node_id: o.node_id,
        filename: o.filename,
        url: await signFileUrl(config, base, o.key, now),
        mime_type: o.mime,
        size_bytes: o.size,
        ...(o.width ? { width: o.width, height: o.height } : {}),
      })),
    ),
  };
  if (rec.outputs.length) {
    view.links_expire_at = new Date(now + config.FILES_URL_TTL_SECONDS * 1000).toISOString();
  }
  if (rec.completedAt) view.completed_at = new Date(rec.completedAt).toISOString();
  if (rec.error) view.error = rec.error;
  return view;
}

function valuesText(view: JobView): string {
  return Object.entries(view.values)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}${view.generated.includes(k) ? " (сгенерирован)" : ""}`)
    .join(", ");
}

/** One line a person can read about the job. */
export function summary(view: JobView): string {
  switch (view.status) {
    case "succeeded": {
      const links = view.outputs.map((o) => o.url).join("\n");
      return `Готово за ${view.elapsed_s} с: ${view.outputs.length} файл(ов) от ${view.tool} (prompt_id ${view.prompt_id}). Значения: ${valuesText(view)}.\nПолный размер:\n${links}`;
    }
    case "pending":
      return `Задача ComfyUI ещё выполняется (прошло ${view.elapsed_s} с). Узнать результат: comfy.job_status с job_id "${view.job_id}" или GET ${view.status_url}. Значения: ${valuesText(view)}.`;
    case "failed":
    case "timed_out": {
      const e = view.error;
      const where = e?.node_id ? ` в узле ${e.node_id}${e.node_type ? ` (${e.node_type})` : ""}` : "";
      const exc = e?.exception_type ? `${e.exception_type}: ` : "";
      const what =
        view.status === "timed_out" ? "Задача ComfyUI прервана по времени" : "ComfyUI не смог выполнить задачу";
      return `${what}${where}: ${exc}${e?.message ?? "нет подробностей"} (prompt_id ${view.prompt_id}).`;
    }
  }
}

/**
 * The result for a job: finished jobs carry inline previews (as many as fit under 1 MiB) and
 * resource links; pending ones say where to look; failures are `isError` when `failAsError`.
 */
export async function jobResult(
  config: Config,
  bucket: R2Bucket,
  rec: JobRecord,
  fallbackBase: string,
  failAsError: boolean,
): Promise<ToolResult> {
  const view = await jobView(config, rec, fallbackBase);
  const text = summary(view);
  const content: ContentBlock[] = [{ type: "text", text }];
  let budget = RESULT_LIMIT - TEXT_RESERVE - 2 * JSON.stringify(view).length - text.length;
  let skipped = 0;
  for (const [i, o] of rec.outputs.entries()) {
    const obj = o.mime.startsWith("image/") ? await bucket.get(o.preview_key) : null;
    const bytes = obj ? new Uint8Array(await obj.arrayBuffer()) : undefined;
    const b64Len = bytes ? Math.ceil(bytes.length / 3) * 4 : Infinity;
    if (bytes && obj && b64Len + 200 <= budget) {
      content.push({ type: "image", data: toBase64(bytes), mimeType: obj.httpMetadata?.contentType ?? o.mime });
      budget -= b64Len + 200;
    } else if (o.mime.startsWith("image/")) skipped++;
    const link = view.outputs[i];
    if (link) content.push({ type: "resource_link", uri: link.url, name: o.filename, mimeType: o.mime });
  }
  if (skipped) {
    const first = content[0];
    if (first?.type === "text") first.text += `\n(${skipped} превью не поместились в ответ — откройте ссылки.)`;
  }
  const isError = failAsError && (rec.status === "failed" || rec.status === "timed_out");
  return isError ? { content, structuredContent: view, isError } : { content, structuredContent: view };
}
