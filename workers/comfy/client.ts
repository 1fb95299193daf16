/**
 * @module The ComfyUI HTTP client (protocols/comfyui.md) over the shared upstream helper: submit
 * a prompt (never retried blindly), read /history and /queue, fetch /view bytes, upload an image.
 * Tunnel/Access headers and error mapping come from shared/http.
 */
import type { Config } from "../../shared/config";
import { ToolError, UpstreamError } from "../../shared/errors";
import { type Upstream, upstreamFetch, upstreamJson } from "../../shared/http/client";
import type { Workflow } from "./config";
import { describeRejection, type PromptRejection } from "./node-errors";

/** One image (or other file) a node produced. */
export interface FileRef {
  filename: string;
  subfolder: string;
  type: string;
}

/** A /history entry (only the parts we read). */
export interface HistoryEntry {
  outputs?: Record<string, { images?: FileRef[]; gifs?: FileRef[] } & Record<string, unknown>>;
  status?: { status_str?: string; completed?: boolean; messages?: [string, Record<string, unknown>][] };
}

/** Where a prompt is in ComfyUI's queue. */
export type QueuePlace = { state: "running" } | { state: "pending"; ahead: number } | { state: "absent" };

const READ_RETRY = { maxAttempts: 3, baseDelayMs: 200, maxDelayMs: 2000 };

/** The ComfyUI upstream description for the shared HTTP helper. */
export function comfyUpstream(config: Config, fetchFn?: typeof fetch): Upstream {
  const up: Upstream = {
    name: "ComfyUI",
    baseUrl: config.COMFYUI_URL ?? "http://127.0.0.1:8188",
    access: { clientId: config.CF_ACCESS_CLIENT_ID, clientSecret: config.CF_ACCESS_CLIENT_SECRET },
    unreachableHint: "is ComfyUI running, and is the tunnel up?",
  };
  if (fetchFn) up.fetch = fetchFn;
  return up;
}

/** A client bound to one ComfyUI. */
export class ComfyClient {
  constructor(
    private readonly up: Upstream,
    private readonly timeoutMs: number,
  ) {}

  /**
   * POST /prompt with our own prompt_id. Never retried blindly: a second POST would run the job
   * twice. When the answer is lost, ComfyUI is asked whether the prompt landed; only a connection
   * failure with the prompt confirmed absent is sent once more (a timeout may still be landing).
   * @throws ToolError naming node, input and reason when ComfyUI rejects the workflow (HTTP 400).
   */
  async submit(prompt: Workflow, promptId: string, clientId: string, nameField?: NameField): Promise<void> {
    const send = () =>
      upstreamFetch(this.up, {
        path: "/prompt",
        json: { prompt, prompt_id: promptId, client_id: clientId },
        timeoutMs: this.timeoutMs,
        acceptStatus: [400],
      });
    let res: Response;
    try {
      res = await send();
    } catch (err) {
      if (!(err instanceof UpstreamError) || (err.status !== undefined && err.status !== 408)) throw err;
      const landed = await this.landed(promptId);
      if (landed === true) return;
      if (landed === false && err.status === undefined) res = await send();
      else {
        throw new UpstreamError(
          "ComfyUI",
          `${err.message}. The prompt (prompt_id ${promptId}) may or may not have been queued; check ComfyUI's queue before trying again.`,
          { cause: err, ...(err.status === undefined ? {} : { status: err.status }) },
        );
      }
    }
    if (res.status === 400) {
      const body = (await res.json().catch(() => ({}))) as PromptRejection;
      const { message, errors } = describeRejection(body, nameField);
      throw new ToolError(message, { data: { prompt_id: promptId, node_errors: errors } });
    }
    await res.body?.cancel();
  }

  /** Whether ComfyUI has the prompt (queued, running or done); undefined when it cannot be asked. */
  private async landed(promptId: string): Promise<boolean | undefined> {
    try {
      if ((await this.place(promptId)).state !== "absent") return true;
      return (await this.history(promptId)) !== undefined;
    } catch {
      return undefined;
    }
  }

  /** GET /history/{id}: undefined while the prompt is queued or running (ComfyUI answers {}). */
  async history(promptId: string): Promise<HistoryEntry | undefined> {
    const body = await upstreamJson<Record<string, HistoryEntry>>(this.up, {
      path: `/history/${encodeURIComponent(promptId)}`,
      timeoutMs: this.timeoutMs,
      retry: READ_RETRY,
    });
    return body[promptId];
  }

  /** GET /queue: is the prompt running, waiting (and behind how many), or neither. */
  async place(promptId: string): Promise<QueuePlace> {
    type Item = [number, string, ...unknown[]];
    const q = await upstreamJson<{ queue_running?: Item[]; queue_pending?: Item[] }>(this.up, {
      path: "/queue",
      timeoutMs: Math.min(this.timeoutMs, 10_000),
      retry: READ_RETRY,
    });
    if (q.queue_running?.some((i) => i[1] === promptId)) return { state: "running" };
    const mine = q.queue_pending?.find((i) => i[1] === promptId);
    if (!mine) return { state: "absent" };
    const ahead = (q.queue_pending ?? []).filter((i) => i[0] < mine[0]).length + (q.queue_running?.length ?? 0);
    return { state: "pending", ahead };
  }

  /** GET /view: the bytes and content type of one output file. */
  async view(ref: FileRef): Promise<{ bytes: Uint8Array; contentType: string }> {
    const qs = new URLSearchParams({ filename: ref.filename, subfolder: ref.subfolder, type: ref.type });
    const res = await upstreamFetch(this.up, { path: `/view?${qs}`, timeoutMs: 60_000, retry: READ_RETRY });
    return {
      bytes: new Uint8Array(await res.arrayBuffer()),
      contentType: res.headers.get("content-type") ?? "application/octet-stream",
    };
  }

  /**
   * POST /upload/image (multipart). Safe to retry: the name is derived from the content and
   * `overwrite` is set, so a repeat writes the same file under the same name.
   * @returns the value to put into LoadImage's `image` input ("name" or "subfolder/name").
   */
  async upload(bytes: Uint8Array, filename: string, mime: string): Promise<string> {
    const send = () => {
      const form = new FormData();
      form.append("image", new Blob([bytes], { type: mime }), filename);
      form.append("type", "input");
      form.append("overwrite", "true");
      return upstreamJson<{ name?: string; subfolder?: string }>(this.up, {
        path: "/upload/image",
        body: form,
        timeoutMs: Math.max(this.timeoutMs, 30_000),
        retry: READ_RETRY,
      });
    };
    const out = await send();
    if (!out.name) throw new UpstreamError("ComfyUI", "ComfyUI accepted the upload but returned no file name");
    return out.subfolder ? `${out.subfolder}/${out.name}` : out.name;
  }
}

/** Maps a node input to the tool field that sets it (for error messages). */
export type NameField = (nodeId: string, input: string | undefined) => string | undefined;

/** A client for the configured ComfyUI. */
export function comfyClient(config: Config, fetchFn?: typeof fetch): ComfyClient {
  return new ComfyClient(comfyUpstream(config, fetchFn), config.COMFYUI_TIMEOUT_MS);
}
