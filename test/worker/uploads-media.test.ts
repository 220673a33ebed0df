import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { parseRange } from "../../worker/routes/media/get";
import { signMediaUrl } from "../../worker/services/media-urls";
import { BASE, expectError } from "./helpers";

const KEY = "sessions/sess_media/renditions/720p clip #1.mp4";
const BYTES = Uint8Array.from({ length: 1000 }, (_, i) => i % 251);

const get = (url: string, headers: Record<string, string> = {}, method = "GET") => (exports as unknown as { default: Fetcher }).default.fetch(new Request(url, { method, headers }));
const sign = (opts: { expiresInSeconds: number; filename?: string; now?: number }, key = KEY) => signMediaUrl(env, BASE, key, opts);

beforeAll(async () => {
  await env.MEDIA.put(KEY, BYTES, { httpMetadata: { contentType: "video/mp4" } });
});

describe("signed media URLs", () => {
  it("serve the whole object with type, length, ETag and Accept-Ranges", async () => {
    const url = await sign({ expiresInSeconds: 600 });
    expect(url).toMatch(/^https:\/\/api\.test\/media\/sessions\/sess_media\/renditions\/720p%20clip%20%231\.mp4\?exp=\d+&sig=[\w-]{43}$/);
    const res = await get(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("video/mp4");
    expect(res.headers.get("Content-Length")).toBe("1000");
    expect(res.headers.get("Accept-Ranges")).toBe("bytes");
    expect(res.headers.get("ETag")).toBe((await env.MEDIA.head(KEY))!.httpEtag);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(BYTES);
  });

  it("answer byte ranges with 206 and a correct Content-Range", async () => {
    const url = await sign({ expiresInSeconds: 600 });
    const cases: [string, number, number][] = [
      ["bytes=0-99", 0, 99],
      ["bytes=990-", 990, 999],
      ["bytes=-10", 990, 999],
      ["bytes=500-5000", 500, 999],
      ["bytes=999-999", 999, 999],
    ];
    for (const [range, start, end] of cases) {
      const res = await get(url, { Range: range });
      expect(res.status, range).toBe(206);
      expect(res.headers.get("Content-Range"), range).toBe(`bytes ${start}-${end}/1000`);
      expect(res.headers.get("Content-Length"), range).toBe(String(end - start + 1));
      expect(new Uint8Array(await res.arrayBuffer()), range).toEqual(BYTES.slice(start, end + 1));
    }
  });

  it("answer an unsatisfiable range with 416 in the error envelope", async () => {
    const url = await sign({ expiresInSeconds: 600 });
    for (const range of ["bytes=1000-", "bytes=5000-6000", "bytes=-0"]) {
      const res = await get(url, { Range: range });
      expect(res.headers.get("Content-Range")).toBe("bytes */1000");
      await expectError(res, 416, "range_not_satisfiable");
    }
  });

  it("answer HEAD with the headers and no body, for ranges too", async () => {
    const url = await sign({ expiresInSeconds: 600 });
    const whole = await get(url, {}, "HEAD");
    expect(whole.status).toBe(200);
    expect(whole.headers.get("Content-Length")).toBe("1000");
    expect(whole.headers.get("ETag")).toBeTruthy();
    expect((await whole.arrayBuffer()).byteLength).toBe(0);
    const part = await get(url, { Range: "bytes=10-19" }, "HEAD");
    expect(part.status).toBe(206);
    expect(part.headers.get("Content-Range")).toBe("bytes 10-19/1000");
  });

  it("carry a signed download filename", async () => {
    const res = await get(await sign({ expiresInSeconds: 600, filename: "Game 1 – highlights.mp4" }));
    expect(res.headers.get("Content-Disposition")).toBe(
      `attachment; filename="Game 1 _ highlights.mp4"; filename*=UTF-8''Game%201%20%E2%80%93%20highlights.mp4`,
    );
  });

  it("refuse tampered URLs with 403 signature_invalid", async () => {
    const url = new URL(await sign({ expiresInSeconds: 600, filename: "a.mp4" }));
    const tampered: string[] = [];
    const withParam = (name: string, value: string | null) => {
      const u = new URL(url);
      if (value === null) u.searchParams.delete(name);
      else u.searchParams.set(name, value);
      return u.toString();
    };
    tampered.push(withParam("exp", String(Number(url.searchParams.get("exp")) + 3600)));
    tampered.push(withParam("filename", "b.mp4"));
    tampered.push(withParam("filename", null));
    tampered.push(withParam("sig", null));
    const sig = url.searchParams.get("sig")!;
    tampered.push(withParam("sig", `${sig[0] === "A" ? "B" : "A"}${sig.slice(1)}`));
    tampered.push(url.toString().replace("720p", "1080p")); // another object, same signature
    for (const t of tampered) {
      const res = await get(t);
      expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
      await expectError(res, 403, "signature_invalid");
    }
  });

  it("refuse expired URLs with 403 signature_invalid", async () => {
    const now = Math.floor(Date.now() / 1000);
    const err = await expectError(await get(await sign({ expiresInSeconds: 60, now: now - 120 })), 403, "signature_invalid");
    expect(err.message).toMatch(/expired/);
  });

  it("answer 404 for a validly signed URL of a missing object", async () => {
    await expectError(await get(await sign({ expiresInSeconds: 600 }, "nope/missing.mp4")), 404, "resource_missing");
  });
});

describe("parseRange", () => {
  it("ignores what RFC 9110 lets a server ignore", () => {
    expect(parseRange(undefined, 10)).toBeNull();
    expect(parseRange("items=0-1", 10)).toBeNull();
    expect(parseRange("bytes=0-1,3-4", 10)).toBeNull();
    expect(parseRange("bytes=5-2", 10)).toBeNull();
    expect(parseRange("bytes=-", 10)).toBeNull();
  });
  it("treats any range of an empty object as unsatisfiable", () => {
    expect(parseRange("bytes=0-", 0)).toBe("unsatisfiable");
    expect(parseRange("bytes=-5", 0)).toBe("unsatisfiable");
  });
});
