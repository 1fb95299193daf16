/**
 * Cards section: get_theme_illustrations and get_card_illustration with a cold R2 cache
 * (download + photon resize + store) against a warm one (one R2 read per artwork), through the
 * Worker under wrangler dev and the fake YGOPRODeck; plus result sizes and upstream pulls.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type BenchSection, load, table } from "./harness";

const COLD_CARDS = ["Dark Magician", "Kuriboh", "Pot of Greed", "Mirror Force", "Decode Talker", "Tornado Dragon"];

async function timed(op: () => Promise<unknown>): Promise<{ ms: number; bytes: number }> {
  const t = performance.now();
  const r = await op();
  return { ms: performance.now() - t, bytes: JSON.stringify(r).length };
}

async function pulls(url: string): Promise<number> {
  const s = (await (await fetch(`${url}/__stats`)).json()) as { pulls: Record<string, number> };
  return Object.values(s.pulls).reduce((a, b) => a + b, 0);
}

const section: BenchSection = {
  name: "cards",
  async run(stack) {
    const fake = stack.fakes.ygoprodeck?.url;
    if (!fake) throw new Error("the ygoprodeck fake is not running");
    const client: Client = await stack.client("/cards/mcp");
    const theme = (name: string, limit: number) => () =>
      client.callTool({ name: "get_theme_illustrations", arguments: { theme: name, limit } });
    const card = (name: string) => () =>
      client.callTool({ name: "get_card_illustration", arguments: { card_name: name } });

    const rows: Record<string, unknown>[] = [];
    const coldTheme = await timed(theme("Blue-Eyes", 8));
    rows.push({
      op: "theme Blue-Eyes ×8",
      cache: "cold",
      n: 1,
      p50_ms: coldTheme.ms,
      p99_ms: coldTheme.ms,
      kb: coldTheme.bytes / 1024,
    });
    const coldCards: number[] = [];
    let cardBytes = 0;
    for (const name of COLD_CARDS) {
      const t = await timed(card(name));
      coldCards.push(t.ms);
      cardBytes = t.bytes;
    }
    coldCards.sort((a, b) => a - b);
    rows.push({
      op: "one card",
      cache: "cold",
      n: coldCards.length,
      p50_ms: coldCards[Math.floor(coldCards.length / 2)],
      p99_ms: coldCards.at(-1),
      kb: cardBytes / 1024,
    });
    const pulledBefore = await pulls(fake);
    const warmTheme = await load(50, 1, theme("Blue-Eyes", 8));
    rows.push({
      op: "theme Blue-Eyes ×8",
      cache: "warm",
      n: warmTheme.n,
      p50_ms: warmTheme.p50,
      p99_ms: warmTheme.p99,
      kb: coldTheme.bytes / 1024,
    });
    const warmTheme10 = await load(100, 10, theme("Blue-Eyes", 5));
    rows.push({
      op: "theme Blue-Eyes ×5, 10 concurrent",
      cache: "warm",
      n: warmTheme10.n,
      p50_ms: warmTheme10.p50,
      p99_ms: warmTheme10.p99,
      kb: "",
    });
    const warmCard = await load(100, 1, card("Dark Magician"));
    rows.push({
      op: "one card",
      cache: "warm",
      n: warmCard.n,
      p50_ms: warmCard.p50,
      p99_ms: warmCard.p99,
      kb: cardBytes / 1024,
    });
    table("Card artworks: cold (download + resize + R2 put) vs warm (R2 read)", rows);
    table("Upstream image pulls", [{ before_warm_runs: pulledBefore, after_warm_runs: await pulls(fake) }]);
  },
};

export default section;
