/**
 * @module Every upstream fake, started once for the whole test run (see test/vitest.config.ts).
 * A family adds its fake here: one entry in FAKES and the env variables that point the Worker at it.
 */
import type { FakeDefinition, RunningFake } from "./harness";
import { startFake } from "./harness";
import { makeAnkiFake } from "./anki";
import { comfyuiFake } from "./comfyui";
import { echoFake } from "./echo";
import { imagesFake } from "./images";
import { tunnelFake } from "./tunnel";
import { embeddingsFake } from "./embeddings";
import { geminiFake } from "./gemini";
import { startMcpFake } from "./mcp-server";
import { qdrantFake } from "./qdrant";
import { rerankerFake } from "./reranker";
import { searchApiFake } from "./search-api";
import { ygoprodeckFake } from "./ygoprodeck";

/** Fakes by key; the key is how tests find them (`fakeUrl("anki")`). */
export const FAKES: Record<string, FakeDefinition> = {
  echo: echoFake,
  // One AnkiConnect per test file that turns knobs or counts requests (files run in parallel);
  // "anki" is the one the Worker under test is configured with.
  anki: makeAnkiFake("anki"),
  anki_media: makeAnkiFake("anki_media"),
  anki_faults: makeAnkiFake("anki_faults"),
  anki_dedup: makeAnkiFake("anki_dedup"),
  anki_batch: makeAnkiFake("anki_batch"),
  anki_proto: makeAnkiFake("anki_proto"),
  anki_seed: makeAnkiFake("anki_seed"),
  tunnel: tunnelFake,
  images: imagesFake,
  qdrant: qdrantFake,
  embeddings: embeddingsFake,
  reranker: rerankerFake,
  search: searchApiFake,
  gemini: geminiFake,
  ygoprodeck: ygoprodeckFake,
  comfyui: comfyuiFake,
};

/** Fakes that run their own server instead of the harness (they need long-lived streams). */
const CUSTOM: Record<string, () => Promise<RunningFake>> = {
  mcp: startMcpFake,
};

/** Worker settings that point at the running fakes. */
export function envForFakes(urls: Record<string, string>): Record<string, string> {
  return {
    FAKE_ECHO_URL: urls.echo ?? "",
    ANKI_CONNECT_URL: urls.anki ?? "",
    QDRANT_URL: urls.qdrant ?? "",
    EMBEDDING_PROVIDER: "openai",
    EMBEDDING_MODEL: "fake-embed-256",
    EMBEDDING_BASE_URL: urls.embeddings ? `${urls.embeddings}/v1` : "",
    RERANK_URL: urls.reranker ?? "",
    SEARCH_API_URL: urls.search ? `${urls.search}/search` : "",
    GEMINI_BASE_URL: urls.gemini ?? "",
    GEMINI_API_KEY: "fake-gemini-key",
    CARD_API_URL: urls.ygoprodeck ? `${urls.ygoprodeck}/api/v7` : "",
    COMFYUI_URL: urls.comfyui ?? "",
  };
}

/** Start every fake; returns them by key. */
export async function startAllFakes(): Promise<Record<string, RunningFake>> {
  const entries = await Promise.all([
    ...Object.entries(FAKES).map(async ([k, def]) => [k, await startFake(def)] as const),
    ...Object.entries(CUSTOM).map(async ([k, start]) => [k, await start()] as const),
  ]);
  return Object.fromEntries(entries);
}
