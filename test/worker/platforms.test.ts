import { describe, expect, it } from "vitest";
import { PlatformResolveError, platformBySourceType, platformFor } from "../../worker/services/platforms";
import { findVeoMp4, veo } from "../../worker/services/platforms/veo";
import { VIDEOS } from "./session-fixtures";

// Match pages come from the local fixture server: app.veo.co is mapped onto it.
const toFixtureServer = async (input: string) => {
  const url = new URL(input);
  if (url.hostname !== "app.veo.co") throw new Error(`unexpected fetch of ${input}`);
  const res = await fetch(`${VIDEOS}/veo${url.pathname}`);
  return { status: res.status, contentType: res.headers.get("Content-Type") ?? "", text: await res.text() };
};

describe("Veo links", () => {
  it("recognises match pages and CDN links only", () => {
    const yes = [
      "https://app.veo.co/matches/20261121-u17-final-4f9a/",
      "https://app.veo.co/matches/u17-final",
      "https://c.veocdn.com/5c2a/video/standard.mp4",
      "https://veocdn.com/x.mp4",
    ];
    const no = [
      "https://app.veo.co/",
      "https://app.veo.co/matches/",
      "https://app.veo.co/teams/abc/",
      "http://app.veo.co/matches/u17-final/",
      "https://veo.co.evil.test/matches/x/",
      "https://evilveocdn.com/x.mp4",
      "https://public.example.test/game.mp4",
    ];
    for (const u of yes) expect(platformFor(new URL(u))?.sourceType, u).toBe("veo");
    for (const u of no) expect(platformFor(new URL(u)), u).toBeNull();
    expect(platformBySourceType("veo")).toBe(veo);
    expect(platformBySourceType("url")).toBeNull();
  });

  it("resolves a match page to its best MP4 from the embedded JSON", async () => {
    const mp4 = await veo.resolveMediaUrl(new URL("https://app.veo.co/matches/u17-final/"), toFixtureServer);
    expect(mp4).toBe("https://c.veocdn.com/5c2a/video/standard-1080p.mp4?sig=b2&exp=9");
  });

  it("prefers the og:video tag when the page has one", async () => {
    const mp4 = await veo.resolveMediaUrl(new URL("https://app.veo.co/matches/og-video/"), toFixtureServer);
    expect(mp4).toBe("https://c.veocdn.com/77aa/video/standard.mp4?x=1&y=2");
  });

  it("fails with source_invalid for a private or missing match", async () => {
    for (const slug of ["private", "no-such-match"]) {
      const err = await veo.resolveMediaUrl(new URL(`https://app.veo.co/matches/${slug}/`), toFixtureServer).catch((e) => e);
      expect(err).toBeInstanceOf(PlatformResolveError);
      expect(err.code).toBe("source_invalid");
    }
  });

  it("fails with source_unavailable on an error answer, marked transient for a 5xx", async () => {
    const page = (status: number) => async () => ({ status, contentType: "text/html", text: "" });
    const match = new URL("https://app.veo.co/matches/u17-final/");
    expect(await veo.resolveMediaUrl(match, page(503)).catch((e) => e)).toMatchObject({ code: "source_unavailable", transient: true });
    expect(await veo.resolveMediaUrl(match, page(403)).catch((e) => e)).toMatchObject({ code: "source_unavailable", transient: false });
  });

  it("finds CDN links that carry a port in the embedded JSON", () => {
    expect(findVeoMp4('{"url":"https:\\/\\/c.veocdn.com:8443\\/v\\/standard-1080p.mp4"}')).toBe("https://c.veocdn.com:8443/v/standard-1080p.mp4");
  });

  it("returns CDN links as they are, without fetching", async () => {
    const link = "https://c.veocdn.com/5c2a/video/standard.mp4";
    expect(await veo.resolveMediaUrl(new URL(link), async () => { throw new Error("no fetch expected"); })).toBe(link);
  });

  it("ignores MP4 links off the Veo CDN", () => {
    expect(findVeoMp4('<a href="https://evil.test/a.mp4">x</a> "https:\\/\\/evil.veocdn.com.test\\/b.mp4"')).toBeNull();
  });
});
