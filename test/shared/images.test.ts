import { describe, expect, it } from "vitest";
import {
  Base64Error,
  ImageDecodeError,
  ensureImgTag,
  extFromMime,
  fitImage,
  fromBase64,
  imgHtml,
  parseDataUrl,
  sha1Hex,
  sniffImage,
  toBase64,
} from "../../shared/images";
import { makeJpeg, makePng } from "../helpers/images";

describe("image helpers", () => {
  it("reads type and size from PNG and JPEG headers", () => {
    expect(sniffImage(makePng(300, 200))).toEqual({ mime: "image/png", width: 300, height: 200 });
    expect(sniffImage(makeJpeg(120, 90))).toEqual({ mime: "image/jpeg", width: 120, height: 90 });
    expect(sniffImage(new TextEncoder().encode("hello, not an image at all"))).toBeUndefined();
  });

  it("passes small images through untouched and downscales large ones to JPEG", () => {
    const small = makePng(64, 32);
    const kept = fitImage(small, { maxSide: 768 });
    expect(kept.resized).toBe(false);
    expect(kept.bytes).toBe(small);

    const big = fitImage(makePng(1600, 800), { maxSide: 768 });
    expect(big).toMatchObject({ resized: true, mime: "image/jpeg", width: 768, height: 384 });
    expect(sniffImage(big.bytes)).toEqual({ mime: "image/jpeg", width: 768, height: 384 });
  });

  it("refuses bytes that are not an image", () => {
    expect(() => fitImage(new Uint8Array([1, 2, 3, 4, 5]), { maxSide: 10 })).toThrow(ImageDecodeError);
  });

  it("round-trips base64 and rejects garbage", () => {
    const bytes = makePng(10, 10);
    expect(fromBase64(toBase64(bytes))).toEqual(bytes);
    expect(() => fromBase64("@@@not base64@@@")).toThrow(Base64Error);
    expect(() => fromBase64("")).toThrow(Base64Error);
  });

  it("parses data URLs in any letter case and names files by SHA-1", async () => {
    expect(parseDataUrl("DATA:image/PNG;BASE64,aGVsbG8=")).toEqual({ mime: "image/png", base64: "aGVsbG8=" });
    expect(parseDataUrl("plain text")).toBeUndefined();
    expect(await sha1Hex(new TextEncoder().encode("abc"))).toBe("a9993e364706816aba3e25717850c26c9cd0d89d");
    expect(extFromMime("image/png")).toBe("png");
    expect(extFromMime("image/x-unknown")).toBe("jpg");
  });

  it("appends the unified <img> HTML once, after a blank line", () => {
    const html = imgHtml("a.jpg");
    expect(html).toBe('<div><img src="a.jpg" style="max-width:100%;height:auto"/></div>');
    expect(ensureImgTag("", "a.jpg")).toBe(html);
    const once = ensureImgTag("Answer", "a.jpg");
    expect(once).toBe(`Answer\n\n${html}`);
    expect(ensureImgTag(once, "a.jpg")).toBe(once);
    expect(ensureImgTag('<img src="a.jpg">', "a.jpg")).toBe('<img src="a.jpg">');
    expect(ensureImgTag(once, "b.jpg")).toContain('src="b.jpg"');
  });
});
