/**
 * @module Browser test of GET /chat in headless Chromium (Debian's chromium + playwright-core),
 * against the real Worker under `wrangler dev --local` and the fakes (fake Gemini, fake
 * YGOPRODeck). A person enters the token, types, and sees the reply, the tool calls and the
 * generated image. Prints one line per check and a final `N passed, N failed`.
 *   npm run test:browser            (SCREENSHOT=path.png to keep the screenshot elsewhere)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { type Stack, startStack } from "../../bench/harness";
import type { GeminiStep } from "../fakes/gemini";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const GEMINI_KEY = "browser-gemini-key";
const SCREENSHOT = process.env.SCREENSHOT ?? join(tmpdir(), "chat-page.png");

const results: { name: string; ok: boolean; error?: string }[] = [];

async function check(name: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
    results.push({ name, ok: true });
    console.log(`ok   ${name}`);
  } catch (err) {
    results.push({ name, ok: false, error: String(err) });
    console.log(`FAIL ${name}\n     ${String(err).split("\n").join("\n     ")}`);
  }
}

function assert(cond: unknown, message: string): asserts cond {
  if (!cond) throw new Error(message);
}

async function script(stack: Stack, steps: GeminiStep[]): Promise<void> {
  const gemini = stack.fakes.gemini;
  assert(gemini, "the fake Gemini is not running");
  await fetch(`${gemini.url}/__gemini/script`, { method: "POST", body: JSON.stringify({ key: GEMINI_KEY, steps }) });
}

async function geminiRequests(stack: Stack): Promise<{ model: string; body: { contents: unknown[] } }[]> {
  const res = await fetch(`${stack.fakes.gemini?.url}/__gemini/requests?key=${GEMINI_KEY}`);
  return ((await res.json()) as { requests: { model: string; body: { contents: unknown[] } }[] }).requests;
}

async function send(page: Page, text: string): Promise<void> {
  await page.fill("#message", text);
  await page.press("#message", "Enter");
}

async function main(): Promise<number> {
  const started = performance.now();
  const stack = await startStack({ GEMINI_API_KEY: GEMINI_KEY, LOG_LEVEL: "error" });
  const profile = mkdtempSync(join(tmpdir(), "chat-chromium-"));
  let context: BrowserContext | undefined;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    const page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(10_000);
    const pageErrors: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(String(e)));
    page.on("console", (m) => {
      // The refused-token check makes the browser log its 401 on purpose.
      if (m.type() === "error" && !m.text().includes("401")) pageErrors.push(m.text());
    });

    await check("the page loads without a token and asks for one", async () => {
      const res = await page.goto(`${stack.url}/chat`);
      assert(res?.status() === 200, `GET /chat answered ${res?.status()}`);
      await page.waitForSelector("#token-input", { state: "visible" });
      assert(await page.isHidden("#message"), "the message box shows before a token is entered");
    });

    await check("a refused token brings the token form back", async () => {
      await page.fill("#token-input", "wrong-token-123");
      await page.click("#token-save");
      await send(page, "hello");
      await page.waitForSelector("#token-input", { state: "visible" });
      const note = await page.textContent("#token-note");
      assert(note?.includes("refused"), `no refusal note, got: ${note}`);
    });

    await check("typing a message shows the reply, the tool calls and the generated image", async () => {
      await script(stack, [
        {
          calls: [
            { name: "get_theme_illustrations", args: { theme: "Blue-Eyes", limit: 2 } },
            { name: "get_card_illustration", args: { card_name: "Blue-Eyes White Dragon" } },
          ],
        },
        { text: "青眼の白龍を大きく配置した構図にしました。" },
        { text: "完成です。", image: true },
      ]);
      await page.fill("#token-input", stack.token);
      await page.click("#token-save");
      await send(page, "ブルーアイズの対戦動画サムネイルを作って");
      await page.waitForSelector(".msg.model .images img");
      const reply = await page.textContent(".msg.model .text");
      assert(reply?.includes("青眼の白龍"), `unexpected reply text: ${reply}`);
      const tools = await page.$$eval(".msg.model .tools li", (lis) => lis.map((li) => li.textContent ?? ""));
      assert(tools.length === 2, `expected 2 tool calls, saw ${JSON.stringify(tools)}`);
      // Each result lands on its own call, whichever finished first.
      assert(/get_theme_illustrations .* ✓ 2 image/.test(tools[0] ?? ""), `first call: ${tools[0]}`);
      assert(/get_card_illustration .* ✓ 1 image/.test(tools[1] ?? ""), `second call: ${tools[1]}`);
      // Browser-side code is passed as strings: this file is type-checked without the DOM lib.
      const width = await page.evaluate<number>('document.querySelector(".msg.model .images img").naturalWidth');
      assert(width > 0, "the generated image did not decode");
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
    });

    await check("the token is kept, and the history goes with the next message", async () => {
      await script(stack, [{ text: "了解しました。" }]);
      await page.reload();
      await page.waitForSelector("#message", { state: "visible" });
      assert(await page.isHidden("#token-input"), "the token was not kept");
      await send(page, "ありがとう");
      await page.waitForSelector("text=了解しました。");
      const [req] = await geminiRequests(stack);
      // After the reload the page starts a new history, so only this message is sent.
      assert(req?.body.contents.length === 1, `expected 1 content, got ${req?.body.contents.length}`);
      await script(stack, [{ text: "二回目です。" }]);
      await send(page, "もう一度");
      await page.waitForSelector("text=二回目です。");
      const [second] = await geminiRequests(stack);
      assert(second?.body.contents.length === 3, `history not sent: ${second?.body.contents.length} contents`);
    });

    await check("the page fits a phone screen and logs no errors", async () => {
      const overflow = await page.evaluate<boolean>("document.documentElement.scrollWidth > window.innerWidth");
      assert(!overflow, "the page scrolls sideways on a 390 px screen");
      assert(pageErrors.length === 0, `page errors: ${pageErrors.join("; ")}`);
    });
  } finally {
    await context?.close().catch(() => undefined);
    rmSync(profile, { recursive: true, force: true });
    await stack.stop();
  }
  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  console.log(`screenshot: ${SCREENSHOT}  (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  console.log(`${passed} passed, ${failed} failed`);
  // No check ran: nothing was proven, so the run fails rather than passing vacuously.
  return results.length === 0 ? 1 : failed;
}

main().then(
  (failed) => process.exit(failed === 0 ? 0 : 1),
  (err: unknown) => {
    console.error(err);
    console.log("0 passed, 1 failed");
    process.exit(1);
  },
);
