/** @module Reading a body with a size cap: stops (and cancels the stream) as soon as it passes the limit. */

/**
 * The stream's bytes, or a thrown `tooBig()` as soon as more than `maxBytes` arrived; the rest of
 * the stream is never read, so an oversized or endless body costs at most `maxBytes`.
 */
export async function readAtMost(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  tooBig: () => Error,
): Promise<Uint8Array> {
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooBig();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
