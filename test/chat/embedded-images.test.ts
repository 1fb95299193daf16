/** Images a tool put inside JSON are taken out for Gemini; look-alikes that are not images stay. */
import { describe, expect, it } from "vitest";
import { toBase64 } from "../../shared/images/encode";
import { toolOutput } from "../../workers/chat/tool-output";
import { makePng } from "../helpers/images";

const PNG = toBase64(makePng(4, 4));

describe("toolOutput with images inside JSON", () => {
  it("takes a {mimeType, data} image and a data: URL out of the text, once each", () => {
    const text = JSON.stringify({ mimeType: "image/png", data: PNG, also: `data:image/png;base64,${PNG}` });
    const out = toolOutput({ content: [{ type: "text", text }] }, "t#1.1");
    expect(out.images).toEqual([{ mimeType: "image/png", data: PNG }]);
    expect(JSON.parse(out.text)).toEqual({
      mimeType: "image/png",
      data: "t#1.1 image 1 (attached as an image part)",
      also: "t#1.1 image 1 (attached as an image part)",
    });
    expect(out.response.images).toEqual(["t#1.1 image 1 (attached as an image part)"]);
  });

  it("leaves data that is not an image, and plain text, as they are", () => {
    const text = JSON.stringify({ mimeType: "image/png", data: "abcd" });
    const out = toolOutput(
      {
        content: [
          { type: "text", text },
          { type: "text", text: "{not json" },
        ],
      },
      "t#1.1",
    );
    expect(out.images).toEqual([]);
    expect(out.text).toBe(`${text}\n{not json`);
  });

  it("an image block repeated in structuredContent is sent once, and leaves the JSON", () => {
    const out = toolOutput(
      {
        content: [{ type: "image", mimeType: "image/png", data: PNG }],
        structuredContent: { card_name: "Kuriboh", mimeType: "image/png", data: PNG },
      },
      "t#2.1",
    );
    expect(out.images).toHaveLength(1);
    expect(out.response.structured).toEqual({
      card_name: "Kuriboh",
      mimeType: "image/png",
      data: "t#2.1 image 1 (attached as an image part)",
    });
  });
});
