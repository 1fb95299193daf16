/** The media pipeline shared by anki.add_from_model and anki.add_notes (spec 000, "Работа с изображениями"). */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fromBase64, imgHtml, sha1Hex, sniffImage, toBase64 } from "../../shared/images";
import { ankiAction, ankiState, callAnki, dataOf } from "../helpers/anki";
import { resetFake } from "../helpers/anki";
import { makeJpeg, makePng } from "../helpers/images";
import { fakeUrl } from "../helpers/mcp";

const FAKE = "anki_media";
type Detail = {
  index: number;
  status: string;
  noteId?: number;
  warnings?: string[];
  messages?: string[];
  error?: string;
  media?: string[];
};
type AddResult = { added: number; skipped: number; details: Detail[] };

const add = async (items: unknown[], vars?: Record<string, string>) =>
  dataOf<AddResult>(await callAnki(FAKE, "anki.add_from_model", { items }, vars));
const stored = async (name: string) =>
  fromBase64(await ankiAction<string>(FAKE, "retrieveMediaFile", { filename: name }));
const noteOf = async (id: number | undefined) => (await ankiState(FAKE)).notes.find((n) => n.id === id);
const img = (url: string) => `${fakeUrl("images")}${url}`;

let png: Uint8Array;
beforeAll(() => {
  png = makePng(40, 30);
});

describe("images[]", () => {
  beforeEach(() => resetFake(FAKE));

  it("stores an image_base64 image under a UUID.jpg name and appends the unified HTML after a blank line", async () => {
    const out = await add([
      { Prompt: "Q", Response: "Answer text", images: [{ image_base64: toBase64(png), target_field: "RESPONSE" }] },
    ]);
    const d = out.details[0];
    expect(d?.status).toBe("ok");
    const name = d?.media?.[0] ?? "";
    expect(name).toMatch(/^[0-9a-f-]{36}\.jpg$/);
    expect((await noteOf(d?.noteId))?.fields.Response).toBe(`Answer text\n\n${imgHtml(name)}`);
    expect(await stored(name)).toEqual(png);
  });

  it("fetches image_url (alias url), resizes the long side to max_side and re-encodes as JPEG", async () => {
    const out = await add([
      {
        Prompt: "big",
        images: [{ image_url: img("/photo.jpg?w=3000&h=2000"), target_field: "Response", filename: "big.jpg" }],
      },
      {
        Prompt: "custom",
        images: [
          { url: img("/photo.png?w=1200&h=1600"), target_field: "Response", filename: "tall.jpg", max_side: 300 },
        ],
      },
      { Prompt: "redirected", images: [{ url: img("/redirect"), target_field: "Response", filename: "small.jpg" }] },
    ]);
    expect(out.added).toBe(3);
    expect(sniffImage(await stored("big.jpg"))).toEqual({ mime: "image/jpeg", width: 768, height: 512 });
    expect(sniffImage(await stored("tall.jpg"))).toEqual({ mime: "image/jpeg", width: 225, height: 300 });
    expect(sniffImage(await stored("small.jpg"))).toEqual({ mime: "image/jpeg", width: 64, height: 64 });
  });

  it("takes image_base64 over image_url when both are given", async () => {
    const out = await add([
      {
        Prompt: "both",
        images: [
          { image_base64: toBase64(png), url: img("/nothing.jpg"), target_field: "Response", filename: "b.png" },
        ],
      },
    ]);
    expect(out.details[0]?.status).toBe("ok");
    expect(await stored("b.png")).toEqual(png);
  });

  it("keeps an image already within max_side byte for byte", async () => {
    const jpeg = makeJpeg(500, 400);
    await add([
      { Prompt: "q", images: [{ image_base64: toBase64(jpeg), target_field: "Response", filename: "keep.jpg" }] },
    ]);
    expect(await stored("keep.jpg")).toEqual(jpeg);
  });

  it("tries an image URL once more when the connection drops", async () => {
    const url = img(`/drop-once.jpg?id=${crypto.randomUUID()}`);
    const out = await add([{ Prompt: "q", images: [{ url, target_field: "Response", filename: "dropped.jpg" }] }]);
    expect(out.details[0]?.status).toBe("ok");
    expect(sniffImage(await stored("dropped.jpg"))).toEqual({ mime: "image/jpeg", width: 48, height: 48 });
  });

  it("sends an image it cannot decode as is, with a warning", async () => {
    const out = await add([
      { Prompt: "q", images: [{ url: img("/truncated.jpg"), target_field: "Response", filename: "t.jpg" }] },
    ]);
    expect(out.details[0]).toMatchObject({ status: "ok", warnings: ["image_not_resized"] });
    expect((await stored("t.jpg")).length).toBe(700);
  });

  it("puts an image with an unknown target_field in the answer field and warns unknown_target_field", async () => {
    const out = await add([{ Prompt: "q", images: [{ image_base64: toBase64(png), filename: "x.png" }] }]);
    expect(out.details[0]).toMatchObject({ status: "ok", warnings: ["unknown_target_field"] });
    expect(out.details[0]?.messages?.[0]).toContain('images[0].target_field "Back" is not a field of this model');
    expect((await noteOf(out.details[0]?.noteId))?.fields.Response).toBe(imgHtml("x.png"));
  });

  it("never duplicates the <img> when the same file is processed twice", async () => {
    const spec = { image_base64: toBase64(png), target_field: "Response", filename: "same.png" };
    const out = await add([{ Prompt: "q", Response: `before ${imgHtml("same.png")}`, images: [spec, spec] }]);
    expect((await noteOf(out.details[0]?.noteId))?.fields.Response).toBe(`before ${imgHtml("same.png")}`);
  });

  it("fails only the item whose image is bad; the other items proceed", async () => {
    const out = await add(
      [
        { Prompt: "good", images: [{ image_base64: toBase64(png), target_field: "Response" }] },
        { Prompt: "bad base64", images: [{ image_base64: "@@not base64@@", target_field: "Response" }] },
        { Prompt: "html", images: [{ url: img("/page.html"), target_field: "Response" }] },
        { Prompt: "not an image", images: [{ url: img("/broken.jpg"), target_field: "Response" }] },
        { Prompt: "too big", images: [{ url: img("/huge?bytes=3000000"), target_field: "Response" }] },
        { Prompt: "ftp", images: [{ url: "ftp://example.com/a.jpg", target_field: "Response" }] },
        { Prompt: "missing", images: [{ url: img("/nothing.jpg"), target_field: "Response" }] },
        { Prompt: "slow", images: [{ url: img("/slow.jpg?ms=1500"), target_field: "Response" }] },
      ],
      { ANKI_IMAGE_MAX_BYTES: "2000000", ANKI_IMAGE_FETCH_TIMEOUT_MS: "500" },
    );
    expect(out.added).toBe(1);
    expect(out.skipped).toBe(7);
    const errors = out.details.map((d) => d.error ?? "");
    expect(errors[0]).toBe("");
    expect(errors[1]).toBe("items[1].images[0].image_base64: base64 data contains invalid characters");
    expect(errors[2]).toMatch(
      /^items\[2\]\.images\[0\]: http:\/\/127\.0\.0\.1:\d+\/page\.html is not an image \(Content-Type text\/html\)$/,
    );
    expect(errors[3]).toBe("items[3].images[0]: the data is not an image (expected JPEG, PNG, GIF or WebP)");
    expect(errors[4]).toMatch(/more than the 2000000-byte limit$/);
    expect(errors[5]).toBe("items[5].images[0]: image_url must be an http(s) URL, not ftp:");
    expect(errors[6]).toMatch(/nothing\.jpg answered HTTP 404$/);
    expect(errors[7]).toMatch(/slow\.jpg did not arrive within 500 ms$/);
    expect((await ankiState(FAKE)).notes.map((n) => n.fields.Prompt)).toEqual(["good"]);
  });

  it("refuses to decode an image with too many pixels (a decompression bomb) instead of running out of memory", async () => {
    const bomb = makePng(2, 2).slice();
    new DataView(bomb.buffer).setUint32(16, 20_000); // IHDR width
    new DataView(bomb.buffer).setUint32(20, 20_000); // IHDR height
    const out = await add([{ Prompt: "bomb", images: [{ image_base64: toBase64(bomb), target_field: "Response" }] }]);
    expect(out.details[0]).toMatchObject({ status: "error" });
    expect(out.details[0]?.error).toBe(
      "items[0].images[0]: the image is 20000×20000 pixels, too large to resize here (at most 24 megapixels); send a smaller one",
    );
  });

  it("rejects an image with neither image_base64 nor image_url", async () => {
    const res = await callAnki(FAKE, "anki.add_from_model", {
      items: [{ Prompt: "q", images: [{ target_field: "Response" }] }],
    });
    expect(res.isError).toBe(true);
  });
});

describe("data:image URLs in fields", () => {
  beforeEach(() => resetFake(FAKE));

  it("stores a data URL in any letter case as img_<sha1>.<ext> and shows it with the unified HTML", async () => {
    const b64 = toBase64(png);
    const name = `img_${await sha1Hex(png)}.png`;
    const out = await add([
      { Prompt: "q", Response: `DATA:image/PNG;BASE64,${b64}`, Context: `Text before data:image/png;base64,${b64}` },
    ]);
    expect(out.details[0]).toMatchObject({ status: "ok", media: [name] });
    const note = await noteOf(out.details[0]?.noteId);
    expect(note?.fields.Response).toBe(imgHtml(name));
    expect(note?.fields.Context).toBe(`Text before\n\n${imgHtml(name)}`);
    expect(await stored(name)).toEqual(png);
  });

  it('takes an existing <img src="data:..."> tag out and shows the file once, at the end', async () => {
    const b64 = toBase64(png);
    const name = `img_${await sha1Hex(png)}.png`;
    const tag = `<img src="data:image/png;base64,${b64}" alt="x">`;
    const out = await add([{ Prompt: "q", Response: `<p>Look:</p>${tag} and again ${tag}` }]);
    expect((await noteOf(out.details[0]?.noteId))?.fields.Response).toBe(`<p>Look:</p> and again\n\n${imgHtml(name)}`);
    const wrapped = await add([
      {
        Prompt: "q2",
        Response: `<div><img src="data:image/png;base64,${b64}" style="max-width:100%;height:auto"/></div>`,
      },
    ]);
    expect((await noteOf(wrapped.details[0]?.noteId))?.fields.Response).toBe(imgHtml(name));
    // An <img> in a div that also holds text: the div stays whole (no dangling <div>).
    const inText = await add([{ Prompt: "q3", Response: `<div>Look: ${tag}</div>` }]);
    expect((await noteOf(inText.details[0]?.noteId))?.fields.Response).toBe(`<div>Look: </div>\n\n${imgHtml(name)}`);
  });

  it("works the same in anki.add_notes", async () => {
    const b64 = toBase64(png);
    const name = `img_${await sha1Hex(png)}.png`;
    const res = await callAnki(FAKE, "anki.add_notes", {
      notes: [{ fields: { Prompt: "q", Response: `data:image/png;base64,${b64}` } }],
    });
    const d = dataOf<AddResult>(res).details[0];
    expect((await noteOf(d?.noteId))?.fields.Response).toBe(imgHtml(name));
  });

  it("fails only the item whose data URL is bad base64 or too big", async () => {
    const big = toBase64(makeJpeg(400, 400));
    const out = await add(
      [
        { Prompt: "bad", Response: "data:image/png;base64,A" },
        { Prompt: "big", Response: `data:image/jpeg;base64,${big}` },
        { Prompt: "fine" },
      ],
      { ANKI_IMAGE_MAX_BYTES: "2048" },
    );
    expect(out.details.map((d) => d.status)).toEqual(["error", "error", "ok"]);
    expect(out.details[0]?.error).toBe(
      "items[0].fields.Response: the data:image/png URL is not valid base64 (base64 data has an invalid length)",
    );
    expect(out.details[1]?.error).toMatch(
      /^items\[1\]\.fields\.Response: the data:image\/jpeg image is \d+ bytes, more than the 2048-byte limit$/,
    );
  });

  it("fails the item when a data URL is not an image", async () => {
    const out = await add([
      { Prompt: "q", Response: `data:image/png;base64,${btoa("not an image at all")}` },
      { Prompt: "fine" },
    ]);
    expect(out.details.map((d) => d.status)).toEqual(["error", "ok"]);
    expect(out.details[0]?.error).toBe("items[0].fields.Response: the data:image/png URL does not contain an image");
  });
});
