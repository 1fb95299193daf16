/** @module The cards family (spec 004): official Yu-Gi-Oh! artworks from YGOPRODeck, cached in R2. */
import { defineFamily } from "../../shared/tools/define-tool";
import { getCardIllustration } from "./get-card-illustration";
import { getThemeIllustrations } from "./get-theme-illustrations";

export const cardsFamily = defineFamily("cards", [getCardIllustration, getThemeIllustrations]);
