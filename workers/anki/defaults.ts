/** @module Defaults of spec 000: deck and model from settings, where an empty value counts as unset. */
import type { Config } from "../../shared/config";

/** The deck to use: the argument, else ANKI_DEFAULT_DECK, else "Default". */
export function deckOf(arg: string | undefined, config: Config): string {
  return arg?.trim() || config.ANKI_DEFAULT_DECK || "Default";
}

/** The model to use: the argument, else ANKI_DEFAULT_MODEL, else "Поля для ChatGPT". */
export function modelOf(arg: string | undefined, config: Config): string {
  return arg?.trim() || config.ANKI_DEFAULT_MODEL || "Поля для ChatGPT";
}
