/**
 * @module The queue consumer that polls ComfyUI jobs. Each message polls /history once: while the
 * prompt is pending it sends a fresh delayed message (so polling never spends the retry budget);
 * a failed poll uses `retry()`, so after max_retries the message lands in the dead-letter queue,
 * whose handler marks the job failed. Messages exist only while a job is pending: no job, no polls.
 */
import { loadConfig, secretsOf } from "../../shared/config";
import { errorMessage } from "../../shared/errors";
import { type Logger, createLogger } from "../../shared/log";
import { type ComfyClient, type HistoryEntry, comfyClient } from "./client";
import { type JobError, type JobMessage, type JobRecord, isJobMessage, isTerminal } from "./job";
import { jobStore } from "./job-store";
import { copyOutputs } from "./outputs";

/** The queue of job polls (wrangler.toml). */
export const JOBS_QUEUE = "comfy-jobs";
/** Where polls that keep failing end up (wrangler.toml). */
export const DEAD_LETTER_QUEUE = "comfy-jobs-dlq";

/**
 * Seconds until the next poll: the configured interval for the first minute, then about 5 % of
 * the job's age (at most 30 s), so an hour-long job costs ~200 polls instead of ~1800; never past
 * the deadline.
 */
export function nextPollDelay(rec: JobRecord, now: number): number {
  const ageS = (now - rec.createdAt) / 1000;
  let delay = ageS < 60 ? rec.pollSeconds : Math.min(30, Math.max(rec.pollSeconds, Math.round(ageS / 20)));
  delay = Math.min(delay, Math.max(0, Math.ceil((rec.deadline - now) / 1000)));
  return Math.max(0, Math.floor(delay));
}

/** Backoff for a failed poll (retry n): 2, 4, 8 … 60 s. */
export function retryDelay(attempts: number): number {
  return Math.min(60, 2 ** Math.max(1, attempts));
}

const str = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v) : undefined);

function failureOf(entry: HistoryEntry): JobError | undefined {
  if (entry.status?.status_str !== "error") return undefined;
  const msgs = entry.status.messages ?? [];
  const hit = msgs.find(([ev]) => ev === "execution_error") ?? msgs.find(([ev]) => ev === "execution_interrupted");
  const d = (hit?.[1] ?? {}) as Record<string, unknown>;
  const err: JobError = {
    kind: hit?.[0] === "execution_interrupted" ? "execution_interrupted" : "execution_error",
    message:
      hit?.[0] === "execution_interrupted"
        ? "выполнение прервано в ComfyUI"
        : (str(d.exception_message)?.trim() ?? "ComfyUI сообщил об ошибке без подробностей"),
  };
  const node = str(d.node_id);
  if (node) err.node_id = node;
  const type = str(d.node_type);
  if (type) err.node_type = type;
  const exc = str(d.exception_type);
  if (exc) err.exception_type = exc;
  return err;
}

function successTime(entry: HistoryEntry): number | undefined {
  const hit = entry.status?.messages?.find(([ev]) => ev === "execution_success");
  const ts = hit?.[1]?.timestamp;
  return typeof ts === "number" ? ts : undefined;
}

type Outcome = { ack: true } | { retryAfter: number };

/** Poll one job once and record what ComfyUI says. */
export async function pollJob(
  env: Env,
  client: ComfyClient,
  msg: JobMessage,
  attempts: number,
  log: Logger,
): Promise<Outcome> {
  const store = jobStore(env, msg.jobId);
  const rec = await store.get();
  if (!rec) {
    log.warn("comfy poll for unknown job", { job: msg.jobId });
    return { ack: true };
  }
  if (isTerminal(rec.status) || msg.seq < rec.pollSeq) return { ack: true };
  const now = Date.now();
  if (now >= rec.deadline) {
    const mins = Math.round((rec.deadline - rec.createdAt) / 60_000);
    await store.update({
      status: "timed_out",
      error: { kind: "timed_out", message: `задача не завершилась за ${mins} мин; в ComfyUI её никто не отменял` },
    });
    return { ack: true };
  }
  let entry: HistoryEntry | undefined;
  try {
    entry = await client.history(rec.id);
  } catch (err) {
    await store.update({ lastError: errorMessage(err), polls: rec.polls + 1 });
    log.warn("comfy poll failed", { job: rec.id, attempts, error: errorMessage(err) });
    return { retryAfter: retryDelay(attempts) };
  }
  if (!entry) {
    const next: JobMessage = { jobId: rec.id, seq: msg.seq + 1 };
    // Send before recording: a crash in between leaves a duplicate (dropped by seq), never a gap.
    await env.COMFY_QUEUE.send(next, { delaySeconds: nextPollDelay(rec, now) });
    await store.update({ polls: rec.polls + 1, pollSeq: next.seq });
    return { ack: true };
  }
  const failure = failureOf(entry);
  if (failure) {
    await store.update({ status: "failed", error: failure, polls: rec.polls + 1 });
    return { ack: true };
  }
  const outputs = await copyOutputs(client, env.FILES, rec.id, entry);
  const done: Partial<JobRecord> = { status: "succeeded", outputs, polls: rec.polls + 1 };
  const at = successTime(entry);
  if (at !== undefined) done.completedAt = at;
  await store.update(done);
  return { ack: true };
}

/** The `comfy-jobs` consumer: one poll per job per batch, each message acked or retried alone. */
export async function consumeJobs(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const config = loadConfig(env);
  const log = createLogger(config.LOG_LEVEL, { queue: batch.queue }, secretsOf(config));
  const client = comfyClient(config);
  // One poll per job: the message with the highest seq (a stale duplicate may come first).
  const newest = new Map<string, Message<JobMessage>>();
  for (const m of batch.messages) {
    if (!isJobMessage(m.body)) continue;
    const best = newest.get(m.body.jobId);
    if (!best || m.body.seq > best.body.seq) newest.set(m.body.jobId, m as Message<JobMessage>);
  }
  await Promise.all(
    batch.messages.map(async (m) => {
      if (!isJobMessage(m.body) || newest.get(m.body.jobId) !== m) return m.ack();
      try {
        const out = await pollJob(env, client, m.body, m.attempts, log);
        if ("ack" in out) m.ack();
        else m.retry({ delaySeconds: out.retryAfter });
      } catch (err) {
        log.error("comfy job poll crashed", { job: m.body.jobId, error: errorMessage(err) });
        // Best effort: the dead-letter handler reports this if the retries run out.
        await jobStore(env, m.body.jobId)
          .update({ lastError: errorMessage(err) })
          .catch(() => undefined);
        m.retry({ delaySeconds: retryDelay(m.attempts) });
      }
    }),
  );
}

/** The `comfy-jobs-dlq` consumer: a job whose polls kept failing is marked failed, with the last error. */
export async function consumeDeadLetters(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  await Promise.all(
    batch.messages.map(async (m) => {
      if (isJobMessage(m.body)) {
        const store = jobStore(env, m.body.jobId);
        const rec = await store.get();
        if (rec && !isTerminal(rec.status) && m.body.seq >= rec.pollSeq) {
          const last = rec.lastError ? `: ${rec.lastError}` : "";
          await store.update({
            status: "failed",
            error: { kind: "poll_failed", message: `не удалось получить статус задачи из ComfyUI${last}` },
          });
        }
      }
      m.ack();
    }),
  );
}
