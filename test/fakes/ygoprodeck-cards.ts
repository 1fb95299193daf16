/**
 * @module The fake YGOPRODeck's card database: a handful of real cards with their real ids,
 * keys laid out as the v7 API does (empty keys omitted, prices as strings, one card_images
 * entry per artwork). Image URLs are filled in per request from the fake's own address.
 */

/** A card as stored here; `images` are artwork ids (the first is the main artwork). */
export interface FakeCard {
  id: number;
  name: string;
  type: string;
  frameType: string;
  desc: string;
  race: string;
  archetype?: string;
  atk?: number;
  def?: number;
  level?: number;
  attribute?: string;
  scale?: number;
  linkval?: number;
  linkmarkers?: string[];
  images?: number[];
}

const monster = (
  id: number,
  name: string,
  extra: Partial<FakeCard> & Pick<FakeCard, "race" | "attribute">,
): FakeCard => ({
  id,
  name,
  type: "Effect Monster",
  frameType: "effect",
  desc: `${name}: a monster used by the fake YGOPRODeck.`,
  ...extra,
});

/** Every card the fake knows. */
export const CARDS: FakeCard[] = [
  monster(89631139, "Blue-Eyes White Dragon", {
    type: "Normal Monster",
    frameType: "normal",
    desc: "This legendary dragon is a powerful engine of destruction.",
    atk: 3000,
    def: 2500,
    level: 8,
    race: "Dragon",
    attribute: "LIGHT",
    archetype: "Blue-Eyes",
    images: [89631139, 89631140, 89631141],
  }),
  monster(38517737, "Blue-Eyes Alternative White Dragon", {
    atk: 3000,
    def: 2500,
    level: 8,
    race: "Dragon",
    attribute: "LIGHT",
    archetype: "Blue-Eyes",
  }),
  monster(23995346, "Blue-Eyes Ultimate Dragon", {
    type: "Fusion Monster",
    frameType: "fusion",
    atk: 4500,
    def: 3800,
    level: 12,
    race: "Dragon",
    attribute: "LIGHT",
    archetype: "Blue-Eyes",
  }),
  monster(55410871, "Blue-Eyes Chaos MAX Dragon", {
    type: "Ritual Effect Monster",
    frameType: "ritual",
    atk: 4000,
    def: 0,
    level: 8,
    race: "Dragon",
    attribute: "DARK",
    archetype: "Blue-Eyes",
  }),
  monster(2129638, "Blue-Eyes Twin Burst Dragon", {
    type: "Fusion Monster",
    frameType: "fusion",
    atk: 3000,
    def: 2500,
    level: 10,
    race: "Dragon",
    attribute: "LIGHT",
    archetype: "Blue-Eyes",
  }),
  monster(53347303, "Blue-Eyes Jet Dragon", {
    atk: 3000,
    def: 0,
    level: 8,
    race: "Dragon",
    attribute: "LIGHT",
    archetype: "Blue-Eyes",
  }),
  monster(71039903, "The White Stone of Ancients", {
    type: "Tuner Monster",
    frameType: "effect",
    atk: 600,
    def: 500,
    level: 1,
    race: "Dragon",
    attribute: "LIGHT",
    archetype: "Blue-Eyes",
  }),
  {
    id: 59085624,
    name: "Roar of the Blue-Eyed Dragons",
    type: "Trap Card",
    frameType: "trap",
    desc: "Special Summon 1 Blue-Eyes monster from your hand or GY.",
    race: "Normal",
    archetype: "Blue-Eyes",
  },
  monster(46986414, "Dark Magician", {
    type: "Normal Monster",
    frameType: "normal",
    desc: "The ultimate wizard in terms of attack and defense.",
    atk: 2500,
    def: 2100,
    level: 7,
    race: "Spellcaster",
    attribute: "DARK",
    archetype: "Dark Magician",
    images: [46986414, 36996508],
  }),
  monster(38033121, "Dark Magician Girl", {
    atk: 2000,
    def: 1700,
    level: 6,
    race: "Spellcaster",
    attribute: "DARK",
    archetype: "Dark Magician",
  }),
  {
    id: 47222536,
    name: "Dark Magical Circle",
    type: "Spell Card",
    frameType: "spell",
    desc: "Look at the top 3 cards of your Deck.",
    race: "Continuous",
    archetype: "Dark Magician",
  },
  monster(40640057, "Kuriboh", {
    atk: 300,
    def: 200,
    level: 1,
    race: "Fiend",
    attribute: "DARK",
    archetype: "Kuriboh",
  }),
  monster(6983839, "Tornado Dragon", {
    type: "XYZ Monster",
    frameType: "xyz",
    desc: "2 Level 4 monsters",
    atk: 2100,
    def: 2000,
    level: 4,
    race: "Wyrm",
    attribute: "WIND",
  }),
  monster(1861629, "Decode Talker", {
    type: "Link Monster",
    frameType: "link",
    atk: 2300,
    race: "Cyberse",
    attribute: "DARK",
    archetype: "Code Talker",
    linkval: 3,
    linkmarkers: ["Top", "Bottom-Left", "Bottom-Right"],
  }),
  monster(16178681, "Odd-Eyes Pendulum Dragon", {
    type: "Pendulum Effect Monster",
    frameType: "effect_pendulum",
    atk: 2500,
    def: 2000,
    level: 7,
    scale: 4,
    race: "Dragon",
    attribute: "DARK",
    archetype: "Odd-Eyes",
  }),
  {
    id: 55144522,
    name: "Pot of Greed",
    type: "Spell Card",
    frameType: "spell",
    desc: "Draw 2 cards.",
    race: "Normal",
  },
  {
    id: 44095762,
    name: "Mirror Force",
    type: "Trap Card",
    frameType: "trap",
    desc: "When an opponent's monster declares an attack: Destroy all your opponent's Attack Position monsters.",
    race: "Normal",
  },
];

/** Every artwork id, for generating image bytes. */
export function allImageIds(): number[] {
  return CARDS.flatMap((c) => c.images ?? [c.id]);
}

/** The card in API shape, image URLs under `imageBase` (e.g. http://127.0.0.1:1234/ns/images). */
export function apiCard(card: FakeCard, imageBase: string): Record<string, unknown> {
  const { images, ...rest } = card;
  const ids = images ?? [card.id];
  return {
    ...rest,
    ygoprodeck_url: `https://ygoprodeck.com/card/${card.name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${card.id % 10_000}`,
    card_sets: [{ set_name: "Legend of Blue Eyes White Dragon", set_code: "LOB-EN001", set_rarity: "Ultra Rare" }],
    card_images: ids.map((id) => ({
      id,
      image_url: `${imageBase}/cards/${id}.jpg`,
      image_url_small: `${imageBase}/cards_small/${id}.jpg`,
      image_url_cropped: `${imageBase}/cards_cropped/${id}.jpg`,
    })),
    card_prices: [{ cardmarket_price: "0.02", tcgplayer_price: "0.10", ebay_price: "0.99" }],
  };
}
