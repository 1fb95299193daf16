/**
 * @module Finding what the model asked for: a card by exact name, then by fuzzy name, then by
 * spelling-insensitive match over word searches ("blue eyes white dragon"); a theme by archetype,
 * then by name. When nothing fits, the error lists close names from those word searches.
 */
import { ToolError } from "../../shared/errors";
import type { Card, CardApi } from "./client";

/** How a card was found. */
export type CardMatch = "exact" | "fuzzy" | "id";
/** How a theme was found: as an archetype, or as part of card names. */
export type ThemeMatch = "archetype" | "name";

const FUZZY_ROWS = 50;
const WORD_ROWS = 100;
const MAX_SUGGESTIONS = 5;

/** Input as the API wants it: NFKC (ｆｕｌｌ-width → ASCII), no `|` (it would make a name list), no quotes, single spaces. */
export function cleanName(input: string): string {
  return input
    .normalize("NFKC")
    .replace(/[|"“”「」『』]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Lower-case letters and digits only: "Blue Eyes white-dragon" ≈ "Blue-Eyes White Dragon". */
export function squash(s: string): string {
  return s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
}

/** Dice coefficient of character bigrams of the squashed strings (0…1). */
export function similarity(a: string, b: string): number {
  const x = squash(a);
  const y = squash(b);
  if (x === y) return 1;
  if (x.length < 2 || y.length < 2) return 0;
  const grams = new Map<string, number>();
  for (let i = 0; i < x.length - 1; i++) grams.set(x.slice(i, i + 2), (grams.get(x.slice(i, i + 2)) ?? 0) + 1);
  let common = 0;
  for (let i = 0; i < y.length - 1; i++) {
    const g = y.slice(i, i + 2);
    const n = grams.get(g) ?? 0;
    if (n > 0) {
      common++;
      grams.set(g, n - 1);
    }
  }
  return (2 * common) / (x.length + y.length - 2);
}

function requireLatin(input: string, what: string): void {
  if (!/[a-z0-9]/i.test(input)) {
    throw new ToolError(
      `YGOPRODeck only knows English ${what} names; translate "${input}" first (e.g. ブルーアイズ → Blue-Eyes, ブラック・マジシャン → Dark Magician) and call again.`,
    );
  }
}

/** Cards found by fuzzy searches for the two longest words of `text` (for suggestions). */
async function wordNeighbours(api: CardApi, text: string): Promise<Card[]> {
  const words = [...new Set(text.match(/[a-z0-9]{3,}/gi) ?? [])].toSorted((a, b) => b.length - a.length).slice(0, 2);
  const found = await Promise.all(words.map((w) => api.cards({ fname: w, num: WORD_ROWS, offset: 0 })));
  const byId = new Map<number, Card>();
  for (const c of found.flat()) byId.set(c.id, c);
  return [...byId.values()];
}

/** Distinct values ranked by similarity to `wanted`, best first. */
function ranked(values: (string | undefined)[], wanted: string): string[] {
  const uniq = [...new Set(values.filter((v): v is string => !!v))];
  return uniq
    .map((v) => ({ v, s: similarity(v, wanted) }))
    .filter((x) => x.s > 0.2)
    .toSorted((a, b) => b.s - a.s || a.v.localeCompare(b.v))
    .map((x) => x.v);
}

function noMatch(kind: "card" | "theme", wanted: string, suggestions: string[]): ToolError {
  const hint =
    suggestions.length > 0
      ? ` Close ${kind === "card" ? "card names" : "themes"}: ${suggestions.map((s) => `"${s}"`).join(", ")}. Call again with one of them.`
      : ` Check the spelling and pass the official English ${kind === "card" ? "card name" : "archetype"}.`;
  return new ToolError(`No ${kind} matching "${wanted}" was found on YGOPRODeck.${hint}`, { data: { suggestions } });
}

/** The card the model meant, or a ToolError with close names. */
export async function findCard(api: CardApi, input: string): Promise<{ card: Card; match: CardMatch }> {
  const name = cleanName(input);
  requireLatin(name, "card");
  if (/^\d{4,10}$/.test(name)) {
    const [byId] = await api.cards({ id: String(Number(name)) });
    if (byId) return { card: byId, match: "id" };
  }
  const exact = await api.cards({ name });
  const hit = exact.find((c) => c.name.toLowerCase() === name.toLowerCase()) ?? exact[0];
  if (hit) return { card: hit, match: "exact" };
  const fuzzy = await api.cards({ fname: name, num: FUZZY_ROWS, offset: 0 });
  const best = fuzzy.toSorted((a, b) => similarity(b.name, name) - similarity(a.name, name))[0];
  if (best) return { card: best, match: "fuzzy" };
  const near = await wordNeighbours(api, name);
  const same = near.find((c) => squash(c.name) === squash(name));
  if (same) return { card: same, match: "fuzzy" };
  throw noMatch(
    "card",
    name,
    ranked(
      near.map((c) => c.name),
      name,
    ).slice(0, MAX_SUGGESTIONS),
  );
}

/** The cards of a theme (archetype first, else cards whose name contains it), or a ToolError with close themes. */
export async function findTheme(
  api: CardApi,
  input: string,
): Promise<{ theme: string; cards: Card[]; match: ThemeMatch }> {
  const theme = cleanName(input);
  requireLatin(theme, "theme");
  const arch = await api.cards({ archetype: theme });
  if (arch.length > 0) return { theme: arch[0]?.archetype ?? theme, cards: arch, match: "archetype" };
  const named = await api.cards({ fname: theme, num: FUZZY_ROWS, offset: 0 });
  if (named.length > 0) return { theme, cards: named, match: "name" };
  const near = await wordNeighbours(api, theme);
  const spelled = near.find((c) => c.archetype && squash(c.archetype) === squash(theme))?.archetype;
  if (spelled) {
    const cards = await api.cards({ archetype: spelled });
    if (cards.length > 0) return { theme: spelled, cards, match: "archetype" };
  }
  const themes = ranked(
    near.map((c) => c.archetype),
    theme,
  );
  throw noMatch("theme", theme, themes.slice(0, MAX_SUGGESTIONS));
}

const isMonster = (c: Card) => /monster/i.test(c.type ?? "");

/** Monsters first (their art shows the creature), keeping the API's order otherwise. */
export function monstersFirst(cards: readonly Card[]): Card[] {
  return [...cards.filter(isMonster), ...cards.filter((c) => !isMonster(c))];
}
