/** GET /files/{key}: signed, expiring links that open without the bearer token, and nothing else does. */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../shared/config";
import { signFileUrl, verifyFileLink } from "../../workers/comfy/files";
import { makePng } from "../helpers/images";
import { BASE, api } from "../helpers/mcp";

const KEY = "comfy/test-job/9-0-ComfyUI_00001_.png";
const png = makePng(40, 30);
const config = () => loadConfig(env);
const path = (url: string) => new URL(url).pathname + new URL(url).search;

beforeAll(async () => {
  await env.FILES.put(KEY, png, { httpMetadata: { contentType: "image/png" } });
});

describe("signed file links", () => {
  it("a valid link serves the file without a bearer token", async () => {
    const url = await signFileUrl(config(), BASE, KEY);
    expect(url).toMatch(
      /^https:\/\/mcp\.test\/files\/comfy\/test-job\/9-0-ComfyUI_00001_\.png\?exp=\d+&sig=[\w-]{43}$/,
    );
    const res = await api(path(url), { token: null });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(png);
  });

  it("an expired link is refused with 410 and says how to get a fresh one", async () => {
    const old = Date.now() - (config().FILES_URL_TTL_SECONDS + 60) * 1000;
    const res = await api(path(await signFileUrl(config(), BASE, KEY, old)), { token: null });
    expect(res.status).toBe(410);
    expect(((await res.json()) as { error: string }).error).toMatch(/expired.*comfy\.job_status/);
  });

  it("a tampered signature, expiry or key is refused with 403", async () => {
    const url = new URL(await signFileUrl(config(), BASE, KEY));
    const sig = url.searchParams.get("sig") ?? "";
    const variants = [
      // A change in the middle alters the signature bytes; one in the padding bits of the last character is
      // a non-canonical spelling of the same bytes, refused as well.
      url.pathname +
        `?exp=${url.searchParams.get("exp")}&sig=${sig.slice(0, 20)}${sig[20] === "A" ? "B" : "A"}${sig.slice(21)}`,
      url.pathname +
        `?exp=${url.searchParams.get("exp")}&sig=${sig.slice(0, -1)}${String.fromCharCode(sig.charCodeAt(42) ^ 1)}`,
      url.pathname + `?exp=${Number(url.searchParams.get("exp")) + 3600}&sig=${sig}`,
      url.pathname.replace("9-0-", "9-1-") + url.search,
      url.pathname,
    ];
    for (const v of variants) {
      const res = await api(v, { token: null });
      expect(res.status, v).toBe(403);
      expect(((await res.json()) as { error: string }).error).toMatch(/invalid or has been altered/);
    }
  });

  it("checks the signature before the expiry, so an old forged link learns nothing", async () => {
    expect(await verifyFileLink(config(), KEY, "1", "A".repeat(43))).toBe("invalid");
    expect(await verifyFileLink(config(), KEY, "x", "A".repeat(43))).toBe("invalid");
  });

  it("a valid link to a deleted object answers 404", async () => {
    const res = await api(path(await signFileUrl(config(), BASE, "comfy/gone.png")), { token: null });
    expect(res.status).toBe(404);
  });

  it("uses FILES_SIGNING_KEY when set: links signed with another key fail", async () => {
    const other = loadConfig({ ...env, FILES_SIGNING_KEY: "another-signing-key" });
    const res = await api(path(await signFileUrl(other, BASE, KEY)), { token: null });
    expect(res.status).toBe(403);
  });
});
