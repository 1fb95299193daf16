/**
 * Runs every benchmark section against one `wrangler dev --local` stack and prints numbers.
 *   npm run bench                 all sections
 *   npm run bench -- core anki    only these sections
 */
import { type BenchSection, startStack } from "./harness";
import anki from "./anki";
import cards from "./cards";
import comfy from "./comfy";
import core from "./core";
import knowledge from "./knowledge";

const SECTIONS: BenchSection[] = [core, anki, knowledge, comfy, cards];

const wanted = process.argv.slice(2);
const chosen = wanted.length ? SECTIONS.filter((s) => wanted.includes(s.name)) : SECTIONS;
if (chosen.length === 0) {
  console.error(`No such section. Sections: ${SECTIONS.map((s) => s.name).join(", ")}`);
  process.exit(2);
}
// A transport's background stream failing under load must not end the whole run.
process.on("unhandledRejection", (err) => console.error(`(unhandled: ${String(err)})`));

const vars = Object.assign({}, ...chosen.map((s) => s.vars ?? {}));
const stack = await startStack(vars);
try {
  for (const section of chosen) {
    console.log(`\n# ${section.name}`);
    const t = performance.now();
    try {
      await section.run(stack);
    } catch (err) {
      console.error(
        `section ${section.name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
      );
      process.exitCode = 1;
    }
    console.log(`(${section.name}: ${((performance.now() - t) / 1000).toFixed(1)} s)`);
  }
} finally {
  await stack.stop();
}
