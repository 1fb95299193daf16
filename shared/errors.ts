/** @module Error types shared by every family: tool errors the model can act on, upstream failures, HTTP errors. */

/**
 * A failure the caller (a model or a person) can act on. Thrown by tool handlers and turned
 * into an `isError: true` tool result (MCP) or a 4xx/5xx JSON answer (REST). The message is
 * shown as is, so it must never contain a secret.
 */
export class ToolError extends Error {
  override readonly name = "ToolError";
  /** Optional structured data returned beside the message (e.g. per-item details). */
  readonly data?: Record<string, unknown>;
  constructor(message: string, options?: { cause?: unknown; data?: Record<string, unknown> }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    if (options?.data) this.data = options.data;
  }
}

/** An upstream (Anki, ComfyUI, Qdrant, …) answered badly or not at all. */
export class UpstreamError extends ToolError {
  override readonly name = "UpstreamError" as "ToolError";
  readonly upstream: string;
  /** HTTP status from the upstream, when there was a response. */
  readonly status?: number;
  constructor(upstream: string, message: string, options?: { status?: number; cause?: unknown }) {
    super(message, { cause: options?.cause });
    this.upstream = upstream;
    if (options?.status !== undefined) this.status = options.status;
  }
}

/** Input that failed validation; `issues` name each field and problem. */
export class ValidationError extends ToolError {
  override readonly name = "ValidationError" as "ToolError";
  readonly issues: string[];
  constructor(issues: string[]) {
    super(`Invalid arguments: ${issues.join("; ")}`);
    this.issues = issues;
  }
}

/** An HTTP-level error for routes (not tools): status plus a JSON body `{error}`. */
export class HttpError extends Error {
  override readonly name = "HttpError";
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
  }
}

/** Best-effort message of an unknown thrown value. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === "string") return err;
  try {
    return JSON.stringify(err);
  } catch {
    return String(err);
  }
}
