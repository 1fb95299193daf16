/**
 * @module Unicode-aware tokenisation for lexical scoring: NFKC, lower case, ё→е, letters and
 * digits of any script, stop words dropped, and a light suffix stemmer for Russian and English
 * so that «поиска», «поиск» and «поиском» (or "searching" and "search") meet.
 */

const STOP = new Set(
  (
    "и в во не что он на я с со как а то все она так его но да ты к у же вы за бы по только ее мне было вот от меня еще нет о из ему теперь когда даже ну вдруг ли если уже или ни быть был него до вас нибудь опять уж вам ведь там потом себя ничего ей может они тут где есть надо ней для мы тебя их чем была сам чтоб без будто чего раз тоже себе под будет ж тогда кто этот того потому этого какой совсем ним здесь этом один почти мой тем чтобы нее сейчас были куда зачем всех никогда можно при наконец два об другой хоть после над больше тот через эти нас про всего них какая много разве три эту моя впрочем хорошо свою этой перед иногда лучше чуть том нельзя такой им более всегда конечно всю между это как " +
    "a an the and or but if of to in on at by for with from as is are was were be been being it its this that these those there here what which who whom how why when where do does did not no can could should would will shall may might must i you he she we they me my your our their them his her"
  )
    .split(" ")
    .filter(Boolean),
);

// Longest first, so "ами" wins over "и". Kept short on purpose: over-stemming hurts more than it helps.
const RU_ENDINGS = [
  "иями",
  "ями",
  "ами",
  "ого",
  "его",
  "ому",
  "ему",
  "ыми",
  "ими",
  "ией",
  "ий",
  "ый",
  "ой",
  "ей",
  "ая",
  "яя",
  "ое",
  "ее",
  "ые",
  "ие",
  "ов",
  "ев",
  "ах",
  "ях",
  "ам",
  "ям",
  "ом",
  "ем",
  "ую",
  "юю",
  "ия",
  "ию",
  "ть",
  "а",
  "я",
  "о",
  "е",
  "ы",
  "и",
  "у",
  "ю",
  "ь",
];
const CYRILLIC = /[\u0400-\u04ff]/;

/** A light English stemmer: plural, -ing/-ed, final e and doubled consonants ("stored", "storing", "store" → "stor"). */
function stemEnglish(word: string): string {
  if (word.length <= 3) return word;
  let w = word;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(ss|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  for (const e of ["ingly", "edly", "ing", "ed"]) {
    if (w.endsWith(e) && w.length - e.length >= 3) {
      w = w.slice(0, -e.length);
      break;
    }
  }
  if (w.endsWith("e") && w.length > 3) w = w.slice(0, -1);
  if (/([bdfgmnprt])\1$/.test(w)) w = w.slice(0, -1);
  return w;
}

/** Reduce a lower-case word to a rough stem (Russian and English suffixes only). */
export function stem(word: string): string {
  if (/^[a-z]+$/.test(word)) return stemEnglish(word);
  if (!CYRILLIC.test(word)) return word;
  for (const e of RU_ENDINGS) {
    if (word.length - e.length >= 3 && word.endsWith(e)) return word.slice(0, -e.length);
  }
  return word;
}

/** Split text into normalised, stemmed tokens without stop words. */
export function tokenize(text: string): string[] {
  const words =
    text
      .normalize("NFKC")
      .toLowerCase()
      .replace(/ё/g, "е")
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  const out: string[] = [];
  for (const w of words) {
    if (STOP.has(w)) continue;
    if (w.length === 1 && !/\p{N}/u.test(w)) continue;
    out.push(stem(w));
  }
  return out;
}
