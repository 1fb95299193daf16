/** @module The ComfyUI job record (kept in the job store) and the queue message that polls it. */

/** `pending` covers queued and running: /history cannot tell them apart, and we do not ask twice. */
export type JobStatus = "pending" | "succeeded" | "failed" | "timed_out";

/** One output file copied to R2. */
export interface JobOutput {
  node_id: string;
  filename: string;
  /** R2 key of the full-size file. */
  key: string;
  /** R2 key of a JPEG/PNG preview small enough to inline. */
  preview_key: string;
  mime: string;
  size: number;
  width?: number;
  height?: number;
}

/** Why a job did not succeed. */
export interface JobError {
  kind: "submit_failed" | "execution_error" | "execution_interrupted" | "timed_out" | "poll_failed";
  message: string;
  node_id?: string;
  node_type?: string;
  exception_type?: string;
}

/** Everything known about one job; the job id is ComfyUI's prompt_id. */
export interface JobRecord {
  id: string;
  tool: string;
  status: JobStatus;
  /** Origin the client used, for links when PUBLIC_BASE_URL is unset. */
  baseUrl: string;
  createdAt: number;
  updatedAt: number;
  /** Past this time (ms) the job is marked timed out and polling stops. */
  deadline: number;
  pollSeconds: number;
  values: Record<string, unknown>;
  generated: string[];
  outputs: JobOutput[];
  error?: JobError;
  /** ComfyUI's execution_success timestamp (ms), when it reported one. */
  completedAt?: number;
  /** /history requests made for this job. */
  polls: number;
  /** Sequence number of the newest poll message; older ones are duplicates and dropped. */
  pollSeq: number;
  /** Last transient polling failure, for the dead-letter handler and job_status. */
  lastError?: string;
}

/** The queue message body: poll job `jobId`; `seq` orders re-enqueued polls. */
export interface JobMessage {
  jobId: string;
  seq: number;
}

/** True once a job will not change any more. */
export function isTerminal(status: JobStatus): boolean {
  return status !== "pending";
}

/** True for a well-formed queue message body. */
export function isJobMessage(body: unknown): body is JobMessage {
  const b = body as Partial<JobMessage> | null;
  return !!b && typeof b.jobId === "string" && typeof b.seq === "number";
}
