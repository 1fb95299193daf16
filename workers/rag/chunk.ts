/**
 * @module Splits Markdown (by headings, ignoring `#` inside fenced code) or plain text into
 * section / content chunks of bounded size. Pure; shared by qdrant-store and `npm run ingest`.
 */

/** One chunk: the heading path it sits under, its text, and its ordinal within that section. */
export interface Chunk {
  section: string;
  content: string;
  /** 0-based position among chunks with the same `section` in this document (stable ids use it). */
  ordinal: number;
}

const HEADING = /^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$/;
const FENCE = /^[ \t]*(```|~~~)/;

/** Split one block of text into pieces of at most `max` characters, at paragraph, line, sentence or word boundaries. */
export function splitText(text: string, max: number): string[] {
  const clean = text.trim();
  if (!clean) return [];
  if (clean.length <= max) return [clean];
  const out: string[] = [];
  let current = "";
  const flush = () => {
    if (current.trim()) out.push(current.trim());
    current = "";
  };
  for (const para of clean.split(/\n[ \t]*\n/)) {
    const p = para.trim();
    if (!p) continue;
    if (current && current.length + 2 + p.length <= max) {
      current += `\n\n${p}`;
      continue;
    }
    flush();
    if (p.length <= max) {
      current = p;
      continue;
    }
    // One long paragraph: sentences (or words) packed up to `max`.
    const pieces = p.match(/[^.!?…\n]+[.!?…]*[\s]*|\n/g) ?? [p];
    for (const piece of pieces) {
      if (current.length + piece.length <= max) current += piece;
      else if (piece.length <= max) {
        flush();
        current = piece;
      } else {
        flush();
        for (let i = 0; i < piece.length; i += max) out.push(piece.slice(i, i + max).trim());
      }
    }
    flush();
  }
  flush();
  return out.filter(Boolean);
}

/**
 * Chunks of a Markdown document. Sections are heading paths ("Setup / Qdrant"); text before the
 * first heading belongs to `title` (e.g. the file name).
 */
export function chunkMarkdown(text: string, title: string, max: number): Chunk[] {
  const sections: { path: string; body: string[] }[] = [];
  const stack: { level: number; text: string }[] = [];
  let current = { path: title, body: [] as string[] };
  let inFence = false;
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    if (FENCE.test(line)) inFence = !inFence;
    const h = inFence ? null : HEADING.exec(line);
    if (!h) {
      current.body.push(line);
      continue;
    }
    sections.push(current);
    const level = h[1]?.length ?? 1;
    while (stack.length && (stack.at(-1)?.level ?? 0) >= level) stack.pop();
    stack.push({ level, text: (h[2] ?? "").trim() });
    current = { path: stack.map((s) => s.text).join(" / "), body: [] };
  }
  sections.push(current);
  return numbered(
    sections.flatMap((s) => splitText(s.body.join("\n"), max).map((content) => ({ section: s.path, content }))),
  );
}

/** Chunks of plain text: paragraphs packed up to `max`, all under `section`. */
export function chunkPlain(text: string, section: string, max: number): Chunk[] {
  return numbered(splitText(text.replace(/\r\n?/g, "\n"), max).map((content) => ({ section, content })));
}

/** Chunk by file type: Markdown for .md/.markdown/.mdx, plain text otherwise. */
export function chunkDocument(source: string, text: string, max: number): Chunk[] {
  const base = source.split("/").pop() ?? source;
  const title = base.replace(/\.[^.]+$/, "");
  return /\.(md|markdown|mdx)$/i.test(source) ? chunkMarkdown(text, title, max) : chunkPlain(text, title, max);
}

function numbered(chunks: { section: string; content: string }[]): Chunk[] {
  const seen = new Map<string, number>();
  return chunks.map((c) => {
    const ordinal = seen.get(c.section) ?? 0;
    seen.set(c.section, ordinal + 1);
    return { ...c, ordinal };
  });
}
