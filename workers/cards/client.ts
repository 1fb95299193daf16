/**
 * @module YGOPRODeck v7 client: `cardinfo.php` queries (rate-limited, refusal-aware, kept in R2
 * for CARD_DATA_TTL_HOURS) and artwork downloads. "No card matching…" is an empty result, not an
 * error; a 429/403 stops every further request for the block period.
 */
import { z } from "zod";
import { ToolError, UpstreamError } from "../../shared/errors";
import {
  HttpStatusError,
  type RequestOptions,
  type Upstream,
  isTransient,
  shownUrl,
  upstreamFetch,
} from "../../shared/http/client";
import { sha1Hex } from "../../shared/images/encode";
import type { ToolContext } from "../../shared/tools/context";
import { politenessFor } from "./rate-limit";

export const UPSTREAM = "YGOPRODeck";
const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
const NO_MATCH = "No card matching";
const DEFAULT_API = "https://db.ygoprodeck.com/api/v7";

const ImageSchema = z.object({
  id: z.number().int(),
  image_url: z.string().optional(),
  image_url_cropped: z.string().optional(),
});
const CardSchema = z.object({
  id: z.number().int(),
  name: z.string().min(1),
  type: z.string().optional(),
  archetype: z.string().optional(),
  ygoprodeck_url: z.string().optional(),
  card_images: z.array(ImageSchema).optional(),
});

/** The fields of a card this family uses. */
export type Card = z.infer<typeof CardSchema>;

/** cardinfo.php parameters we send. */
export interface CardQuery {
  name?: string;
  fname?: string;
  archetype?: string;
  id?: string;
  num?: number;
  offset?: number;
}

/** YGOPRODeck documents no status for its block; 429 and 403 are how refusals look. */
const isRefusal = (err: unknown): err is UpstreamError =>
  err instanceof UpstreamError && (err.status === 429 || err.status === 403);

/** Talks to YGOPRODeck for one tool call; limits and blocks are shared by the whole isolate. */
export class CardApi {
  private readonly up: Upstream;
  private readonly polite: ReturnType<typeof politenessFor>;
  private sharedBlock: Promise<number> | undefined;

  constructor(private readonly ctx: ToolContext) {
    const base = ctx.config.CARD_API_URL ?? DEFAULT_API;
    this.polite = politenessFor(base, ctx.config.CARD_API_MAX_RPS);
    this.up = this.upstream(UPSTREAM, base);
  }

  /** Cards matching `query`, in API order; [] when the API finds none. */
  async cards(query: CardQuery): Promise<Card[]> {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) qs.set(k, String(v));
    const key = `cards/api/${await sha1Hex(new TextEncoder().encode(`${this.up.baseUrl}?${qs}`))}.json`;
    const cached = await this.readCached(key);
    if (cached) return cached;
    const res = await this.send(this.up, { path: `/cardinfo.php?${qs}`, acceptStatus: [400] });
    const body = await this.json(res);
    if (res.status === 400) {
      const err = z.object({ error: z.string() }).safeParse(body);
      if (err.success && err.data.error.startsWith(NO_MATCH)) return [];
      const why = err.success ? err.data.error.slice(0, 300) : "no reason given";
      throw new UpstreamError(UPSTREAM, `YGOPRODeck rejected the query (${why})`, { status: 400 });
    }
    const parsed = z.object({ data: z.array(z.unknown()) }).safeParse(body);
    if (!parsed.success) {
      throw new UpstreamError(
        UPSTREAM,
        `YGOPRODeck answered without a card list; check CARD_API_URL (${shownUrl(this.up.baseUrl)})`,
      );
    }
    const cards = parsed.data.data.flatMap((d) => {
      const c = CardSchema.safeParse(d);
      return c.success ? [c.data] : [];
    });
    await this.writeCached(key, cards);
    return cards;
  }

  /** Download an artwork (http/https only, at most 8 MiB), through the same limiter. */
  async download(url: string): Promise<Uint8Array> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new UpstreamError(UPSTREAM, `YGOPRODeck gave an image URL that is not a URL`);
    }
    if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
      throw new UpstreamError(UPSTREAM, `YGOPRODeck gave an image URL that is not http(s): ${parsed.protocol}`);
    }
    const images = this.upstream("YGOPRODeck images", parsed.origin);
    const res = await this.send(images, { path: parsed.href, timeoutMs: 20_000 });
    const declared = Number(res.headers.get("content-length") ?? "0");
    if (declared > MAX_IMAGE_BYTES) throw new UpstreamError(images.name, `artwork at ${parsed.href} is too large`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (bytes.length > MAX_IMAGE_BYTES) throw new UpstreamError(images.name, `artwork at ${parsed.href} is too large`);
    return bytes;
  }

  /**
   * One request: refuse early while blocked (here or, per the R2 marker, in another isolate),
   * retry transient failures, start a block on 429/403.
   */
  private async send(up: Upstream, opts: RequestOptions): Promise<Response> {
    this.sharedBlock ??= this.readSharedBlock();
    const shared = await this.sharedBlock;
    if (shared > Date.now()) this.polite.block.block(shared - Date.now());
    const blocked = this.polite.block.blockedUntil();
    if (blocked) throw blockedError(blocked);
    try {
      return await upstreamFetch(up, {
        timeoutMs: 15_000,
        signal: this.ctx.signal,
        retry: { maxAttempts: 3, baseDelayMs: 200, shouldRetry: (e) => isTransient(e) && !isRefusal(e) },
        ...opts,
      });
    } catch (err) {
      if (!isRefusal(err)) throw err;
      const retryAfter = err instanceof HttpStatusError ? err.retryAfterMs : undefined;
      this.polite.block.block(retryAfter ?? this.ctx.config.CARD_API_BLOCK_SECONDS * 1000);
      this.ctx.log.warn("YGOPRODeck refused us; pausing requests", { status: err.status });
      const until = this.polite.block.blockedUntil() ?? new Date();
      await bucket(this.ctx)
        .put(this.blockKey(), until.toISOString())
        .catch(() => undefined);
      throw blockedError(until);
    }
  }

  private blockKey(): string {
    return `cards/blocked/${encodeURIComponent(this.up.baseUrl)}`;
  }

  /** When another isolate was refused, it left the block's end time in R2 (0 = none). */
  private async readSharedBlock(): Promise<number> {
    try {
      const obj = await bucket(this.ctx).get(this.blockKey());
      return obj ? Date.parse(await obj.text()) || 0 : 0;
    } catch {
      return 0;
    }
  }

  private upstream(name: string, baseUrl: string): Upstream {
    return {
      name,
      baseUrl,
      unreachableHint: "check CARD_API_URL and the network",
      fetch: (input, init) => this.polite.limiter.run(() => this.ctx.fetch(input, init), this.ctx.signal),
    };
  }

  private async json(res: Response): Promise<unknown> {
    const text = await res.text();
    try {
      return JSON.parse(text);
    } catch {
      throw new UpstreamError(
        UPSTREAM,
        `YGOPRODeck answered with something that is not JSON (HTTP ${res.status}); check CARD_API_URL (${shownUrl(this.up.baseUrl)})`,
        { status: res.status },
      );
    }
  }

  private async readCached(key: string): Promise<Card[] | undefined> {
    const ttlMs = this.ctx.config.CARD_DATA_TTL_HOURS * 3_600_000;
    if (ttlMs === 0) return undefined;
    try {
      const obj = await bucket(this.ctx).get(key);
      if (!obj) return undefined;
      const fetchedAt = Number(obj.customMetadata?.fetchedAt ?? "0");
      if (Date.now() - fetchedAt > ttlMs) return undefined;
      const cards = z.array(CardSchema).safeParse(await obj.json());
      return cards.success ? cards.data : undefined;
    } catch (err) {
      this.ctx.log.warn("card lookup cache unreadable", { key, error: String(err) });
      return undefined;
    }
  }

  private async writeCached(key: string, cards: Card[]): Promise<void> {
    if (this.ctx.config.CARD_DATA_TTL_HOURS === 0 || cards.length === 0) return;
    try {
      await bucket(this.ctx).put(key, JSON.stringify(cards), {
        httpMetadata: { contentType: "application/json" },
        customMetadata: { fetchedAt: String(Date.now()) },
      });
    } catch (err) {
      this.ctx.log.warn("card lookup cache not written", { key, error: String(err) });
    }
  }
}

/** The R2 bucket that keeps artworks and lookups (binding FILES). */
export function bucket(ctx: ToolContext): R2Bucket {
  const b = (ctx.bindings as Partial<Env>).FILES;
  if (!b)
    throw new ToolError("The R2 bucket binding FILES is missing; card illustrations need it (see wrangler.toml).");
  return b;
}

function blockedError(until: Date): UpstreamError {
  const hhmm = until.toISOString().slice(11, 16);
  return new UpstreamError(
    UPSTREAM,
    `YGOPRODeck refused our requests (rate limit), so this server does not call it again until ${hhmm} UTC. Illustrations fetched before still work; try again later.`,
    { status: 429 },
  );
}
