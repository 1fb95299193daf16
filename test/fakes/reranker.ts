/**
 * @module A fake cross-encoder in the style of Hugging Face TEI: `POST /rerank {query, texts}` →
 * `[{index, score}]` sorted by score. The score is the share of query words found in the text,
 * squashed to (0, 1), so the answer is deterministic and meaningful. Knob `apiKey` requires a
 * Bearer token (401 plain text otherwise); `fault: "partial"` scores only the first text.
 */
import type { FakeDefinition } from "./harness";

const words = (s: string) =>
  new Set(
    (
      s
        .normalize("NFKC")
        .toLowerCase()
        .replace(/ё/g, "е")
        .match(/[\p{L}\p{N}]+/gu) ?? []
    ).map((w) => w.slice(0, 5)),
  );

/** Fake reranker. */
export const rerankerFake: FakeDefinition = {
  name: "reranker",
  handle(req) {
    const key = req.knobs.apiKey;
    if (typeof key === "string" && req.headers.authorization !== `Bearer ${key}`) {
      return { status: 401, headers: { "Content-Type": "text/plain" }, body: "Unauthorized" };
    }
    if (req.knobs.fault === "error") return { status: 500, json: { error: "fake reranker failure" } };
    if (req.method !== "POST" || req.path !== "/rerank") return { status: 404, json: { error: "Not found" } };
    const body = JSON.parse(req.body.toString("utf8") || "{}") as { query?: string; texts?: string[] };
    if (typeof body.query !== "string" || !Array.isArray(body.texts)) {
      return { status: 422, json: { error: "query and texts are required", error_type: "Validation" } };
    }
    const q = words(body.query);
    const scored = body.texts.map((t, index) => {
      const w = words(t);
      let hit = 0;
      for (const x of q) if (w.has(x)) hit++;
      const share = q.size ? hit / q.size : 0;
      return { index, score: 1 / (1 + Math.exp(-8 * (share - 0.5))) };
    });
    scored.sort((a, b) => b.score - a.score || a.index - b.index);
    if (req.knobs.fault === "partial") return { json: scored.filter((s) => s.index === 0) };
    return { json: scored };
  },
};
