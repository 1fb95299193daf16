/** Closes the fakes the vitest config started, when the run ends. */
import type { RunningFake } from "./fakes/harness";

export default function setup() {
  return async () => {
    const fakes = (globalThis as { __fakes?: Record<string, RunningFake> }).__fakes;
    if (fakes) await Promise.all(Object.values(fakes).map((f) => f.close()));
  };
}
