/**
 * @module Every upstream fake, started once for the whole test run (see test/vitest.config.ts).
 * A family adds its fake here: one entry in FAKES and the env variables that point the Worker at it.
 */
import type { FakeDefinition, RunningFake } from "./harness";
import { startFake } from "./harness";
import { echoFake } from "./echo";
import { geminiFake } from "./gemini";
import { startMcpFake } from "./mcp-server";
import { ygoprodeckFake } from "./ygoprodeck";

/** Fakes by key; the key is how tests find them (`fakeUrl("anki")`). */
export const FAKES: Record<string, FakeDefinition> = {
  echo: echoFake,
  gemini: geminiFake,
  ygoprodeck: ygoprodeckFake,
};

/** Fakes that run their own server instead of the harness (they need long-lived streams). */
const CUSTOM: Record<string, () => Promise<RunningFake>> = {
  mcp: startMcpFake,
};

/** Worker settings that point at the running fakes. */
export function envForFakes(urls: Record<string, string>): Record<string, string> {
  return {
    FAKE_ECHO_URL: urls.echo ?? "",
    GEMINI_BASE_URL: urls.gemini ?? "",
    GEMINI_API_KEY: "fake-gemini-key",
    CARD_API_URL: urls.ygoprodeck ? `${urls.ygoprodeck}/api/v7` : "",
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
