/**
 * @module Fake YGOPRODeck (protocols/ygoprodeck.md): `cardinfo.php` with name (`|` lists),
 * fname, archetype, id, num/offset; 400 `{error}` on no match and on unknown parameters; empty
 * keys omitted; JPEG artworks (made with sharp) that count every pull.
 *
 * Namespaces keep parallel test files apart: any path prefix before `/api/v7/…` or `/images/…`
 * is a namespace with its own pull counters and rate window, and image URLs point back into
 * it. Flags after `~` in the namespace change behaviour for it alone, e.g.
 * `/t1~garbage/api/v7`:
 *   ~garbage        cardinfo answers 200 with HTML
 *   ~error          cardinfo answers 500 with `{error}`
 *   ~blocked        everything answers 429 (the API has blocked us)
 *   ~rate           emulate the limit: more than 20 requests in 1 s → 429 for 60 s
 *   ~badimage       image routes answer 200 with HTML
 *   ~big            artworks are 1600×1600 instead of 624×624
 * The same flags work as the global knob `fault` (POST /__control {"fault": "garbage"}).
 * `GET {ns}/__stats` → `{pulls: {imageId: n}, apiRequests, maxPerSecond, rejected}`.
 */
import sharp from "sharp";
import type { FakeDefinition, FakeRequest, FakeResponse } from "./harness";
import { CARDS, apiCard, type FakeCard } from "./ygoprodeck-cards";

const NO_MATCH =
  "No card matching your query was found in the database. Please see https://ygoprodeck.com/api-guide/ for syntax usage.";
const PARAMS = new Set(["name", "fname", "id", "archetype", "num", "offset", "misc", "sort", "language"]);
const RATE_LIMIT = 20;
const RATE_BLOCK_MS = 60_000;

interface Space {
  pulls: Map<number, number>;
  recent: number[];
  maxPerSecond: number;
  blockedUntil: number;
  rejected: number;
  apiRequests: number;
}

const spaces = new Map<string, Space>();
const images = new Map<string, Promise<Buffer>>();

function space(ns: string): Space {
  let s = spaces.get(ns);
  if (!s) {
    s = { pulls: new Map(), recent: [], maxPerSecond: 0, blockedUntil: 0, rejected: 0, apiRequests: 0 };
    spaces.set(ns, s);
  }
  return s;
}

/** A JPEG with a per-id colour, gradient and noise, so sizes look like real artworks (~60–90 KB). */
function artwork(id: number, side: number): Promise<Buffer> {
  const key = `${id}@${side}`;
  let p = images.get(key);
  if (!p) {
    const px = Buffer.alloc(side * side * 3);
    let seed = id;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff) * 48;
    const hue = [(id * 37) % 200, (id * 91) % 200, (id * 53) % 200];
    for (let y = 0; y < side; y++) {
      for (let x = 0; x < side; x++) {
        const i = (y * side + x) * 3;
        px[i] = Math.min(255, (hue[0] ?? 0) + (x * 55) / side + rand());
        px[i + 1] = Math.min(255, (hue[1] ?? 0) + (y * 55) / side + rand());
        px[i + 2] = Math.min(255, (hue[2] ?? 0) + rand());
      }
    }
    p = sharp(px, { raw: { width: side, height: side, channels: 3 } })
      .jpeg({ quality: 85 })
      .toBuffer();
    images.set(key, p);
  }
  return p;
}

function flagsOf(ns: string, knobs: FakeRequest["knobs"]): Set<string> {
  const flags = new Set(ns.split("~").slice(1));
  if (typeof knobs.fault === "string") flags.add(knobs.fault);
  return flags;
}

/** Count a request in the namespace's 1 s window; true when the emulated limit blocks it. */
function rateLimited(s: Space, flags: Set<string>): boolean {
  const now = Date.now();
  if (now < s.blockedUntil) {
    s.rejected++;
    return true;
  }
  s.recent.push(now);
  while ((s.recent[0] ?? now) <= now - 1000) s.recent.shift();
  s.maxPerSecond = Math.max(s.maxPerSecond, s.recent.length);
  if (flags.has("rate") && s.recent.length > RATE_LIMIT) {
    s.blockedUntil = now + RATE_BLOCK_MS;
    s.rejected++;
    return true;
  }
  return false;
}

const error = (message: string): FakeResponse => ({ status: 400, json: { error: message } });

function matches(q: URLSearchParams): FakeCard[] | string {
  for (const key of q.keys()) if (!PARAMS.has(key)) return `Invalid parameter "${key}" was sent.`;
  if (q.has("id") && q.has("name")) return "You cannot use the id and name parameters together.";
  if (q.has("num") !== q.has("offset")) return "You must use both num and offset together.";
  let cards = CARDS;
  const name = q.get("name");
  if (name !== null) {
    const wanted = name.split("|").map((n) => n.trim().toLowerCase());
    cards = cards.filter((c) => wanted.includes(c.name.toLowerCase()));
  }
  const fname = q.get("fname");
  if (fname !== null) cards = cards.filter((c) => c.name.toLowerCase().includes(fname.trim().toLowerCase()));
  const archetype = q.get("archetype");
  if (archetype !== null) cards = cards.filter((c) => c.archetype?.toLowerCase() === archetype.trim().toLowerCase());
  const ids = q.get("id");
  if (ids !== null) {
    const wanted = ids.split(",").map((s) => Number(s.trim()));
    cards = cards.filter((c) => wanted.includes(c.id));
  }
  cards = cards.toSorted((a, b) => a.name.localeCompare(b.name));
  if (q.has("num")) {
    const offset = Number(q.get("offset"));
    cards = cards.slice(offset, offset + Number(q.get("num")));
  }
  return cards;
}

function cardinfo(req: FakeRequest, ns: string, flags: Set<string>): FakeResponse {
  if (flags.has("garbage")) return { body: "<html>Cloudflare is checking your browser…</html>" };
  if (flags.has("error")) return { status: 500, json: { error: "Database error." } };
  const found = matches(req.query);
  if (typeof found === "string") return error(found);
  if (found.length === 0) return error(NO_MATCH);
  const imageBase = `http://${req.headers.host ?? "127.0.0.1"}${ns}/images`;
  return { json: { data: found.map((c) => apiCard(c, imageBase)) } };
}

async function image(id: number, s: Space, flags: Set<string>): Promise<FakeResponse> {
  if (!CARDS.some((c) => (c.images ?? [c.id]).includes(id))) return { status: 404, body: "Not Found" };
  s.pulls.set(id, (s.pulls.get(id) ?? 0) + 1);
  if (flags.has("badimage")) return { body: "<html>hotlinking is not allowed</html>" };
  const bytes = await artwork(id, flags.has("big") ? 1600 : 624);
  return { headers: { "Content-Type": "image/jpeg" }, body: bytes };
}

/** The fake YGOPRODeck API and image host (one server, both roles). */
export const ygoprodeckFake: FakeDefinition = {
  name: "ygoprodeck",
  reset() {
    spaces.clear();
  },
  async handle(req) {
    const stats = /^(.*)\/__stats$/.exec(req.path);
    if (stats) {
      const s = space(stats[1] ?? "");
      return {
        json: {
          pulls: Object.fromEntries(s.pulls),
          apiRequests: s.apiRequests,
          maxPerSecond: s.maxPerSecond,
          rejected: s.rejected,
        },
      };
    }
    const api = /^(.*)\/api\/v7\/cardinfo\.php$/.exec(req.path);
    const img = /^(.*)\/images\/(?:cards|cards_small|cards_cropped)\/(\d+)\.jpg$/.exec(req.path);
    const ns = api?.[1] ?? img?.[1];
    if (ns === undefined || req.method !== "GET") return { status: 404, body: "Not Found" };
    const s = space(ns);
    const flags = flagsOf(ns, req.knobs);
    if (flags.has("blocked")) s.rejected++;
    if (flags.has("blocked") || rateLimited(s, flags)) {
      return { status: 429, body: "Too Many Requests" };
    }
    if (api) {
      s.apiRequests++;
      return cardinfo(req, ns, flags);
    }
    return image(Number(img?.[2]), s, flags);
  },
};
