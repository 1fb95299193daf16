/** @module Looking up a job for comfy.job_status and GET /comfy/jobs/{id}, with its live queue place while pending. */
import type { Config } from "../../shared/config";
import { type QueuePlace, comfyClient } from "./client";
import type { JobRecord } from "./job";
import { jobStore } from "./job-store";

/** True for a job id as we issue them (ComfyUI prompt ids are UUIDs). */
export function isJobId(id: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
}

/** The stored record of `id`, or null. */
export async function findJob(env: Env, id: string): Promise<JobRecord | null> {
  if (!isJobId(id)) return null;
  return jobStore(env, id).get();
}

/**
 * Where a pending job is right now (one GET /queue, only when someone asks); undefined when
 * ComfyUI cannot be asked. `absent` means it has left the queue and the next poll will collect it.
 */
export async function queuePlace(config: Config, id: string, fetchFn?: typeof fetch): Promise<QueuePlace | undefined> {
  return comfyClient(config, fetchFn)
    .place(id)
    .catch(() => undefined);
}

/** Human words for a queue place. */
export function placeText(place: QueuePlace | undefined): string {
  if (!place) return "ComfyUI сейчас не отвечает; задача остаётся на контроле";
  if (place.state === "running") return "ComfyUI выполняет задачу";
  if (place.state === "pending") return `в очереди ComfyUI, перед ней задач: ${place.ahead}`;
  return "ComfyUI закончил, результат забирается";
}
