/**
 * @module Workers AI embeddings (default `@cf/baai/bge-m3`, multilingual, 1024 dimensions) through
 * the `AI` binding. Under `wrangler dev --local` and in tests the binding cannot run models, so
 * a failure says so and names the other providers.
 */
import { ToolError, errorMessage } from "../../shared/errors";
import type { Embedder } from "./embed";
import { checkVectors } from "./embed-util";

/** Runs a Workers AI model: `env.AI.run` in the Worker, the REST API from Node. */
export type AiRunner = (model: string, inputs: Record<string, unknown>) => Promise<unknown>;

/** The hint every Workers AI failure carries. */
export const WORKERS_AI_HINT =
  "Workers AI runs only on Cloudflare (deployed, or `wrangler dev` with a login); locally set EMBEDDING_PROVIDER=openai with EMBEDDING_BASE_URL (e.g. Ollama), or EMBEDDING_PROVIDER=gemini";

/** An AiRunner over the Worker's `AI` binding, or undefined when there is none. */
export function bindingRunner(ai: Ai | undefined): AiRunner | undefined {
  if (!ai || typeof ai.run !== "function") return undefined;
  return (model, inputs) => ai.run(model as Parameters<Ai["run"]>[0], inputs as never) as Promise<unknown>;
}

/** An embedder over Workers AI. */
export function workersAiEmbedder(model: string, run: AiRunner | undefined): Embedder {
  return {
    provider: "workers-ai",
    model,
    async embed(texts) {
      if (!run) throw new ToolError(`Workers AI embeddings are not configured (no AI binding): ${WORKERS_AI_HINT}`);
      let answer: unknown;
      try {
        answer = await run(model, { text: [...texts] });
      } catch (err) {
        throw new ToolError(
          `Workers AI embeddings (${model}) are not available here (${errorMessage(err).slice(0, 160)}): ${WORKERS_AI_HINT}`,
          { cause: err },
        );
      }
      const data = answer && typeof answer === "object" ? (answer as { data?: unknown }).data : undefined;
      return checkVectors(data, "workers-ai", model);
    },
  };
}
