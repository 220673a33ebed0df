import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { ApiError } from "../../worker/errors";
import { runtimeFetch } from "../../worker/services/http-client";
import { ResolverUnavailableError, type HostResolver } from "../../contract/url-policy";
import { checkPublicUrl, classifyAddress, DohResolver, type UrlPolicy } from "../../worker/services/url-safety";

// The resolver talks to a local DNS-over-HTTPS server (test/support/doh-server.ts).
const resolver = new DohResolver(env.DOH_URL!, runtimeFetch);
const strict: UrlPolicy = { resolver, allowLoopback: false, param: "source.url" };
const dev = { ...strict, allowLoopback: true };

async function rejected(url: string, policy = strict): Promise<ApiError> {
  try {
    await checkPublicUrl(url, policy);
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error(`expected ${url} to be rejected`);
}

describe("checkPublicUrl: SSRF corpus", () => {
  it("accepts https links whose host resolves only to public addresses", async () => {
    expect((await checkPublicUrl("https://public.example.test/game.mp4", strict)).url.hostname).toBe("public.example.test");
    expect((await checkPublicUrl("https://cdn.veocdn.com/v/1.mp4", strict)).url.pathname).toBe("/v/1.mp4");
  });

  const blocked = [
    "http://public.example.test/game.mp4", // not https
    "ftp://public.example.test/game.mp4",
    "https://user:pass@public.example.test/game.mp4", // credentials
    "https://user@public.example.test/game.mp4",
    "https://private.example.test/a.mp4",
    "https://mixed.example.test/a.mp4", // one private address is enough
    "https://loopback.example.test/a.mp4",
    "https://linklocal.example.test/latest/meta-data",
    "https://cgnat.example.test/a.mp4",
    "https://multicast.example.test/a.mp4",
    "https://zero.example.test/a.mp4",
    "https://ula.example.test/a.mp4",
    "https://mapped.example.test/a.mp4",
    "https://v6loop.example.test/a.mp4",
    "https://nonexistent.example.test/a.mp4", // does not resolve
    "https://localhost/a.mp4",
    "https://127.0.0.1/a.mp4",
    "https://2130706433/a.mp4", // decimal 127.0.0.1
    "https://0x7f.0.0.1/a.mp4", // hex
    "https://0177.0.0.1/a.mp4", // octal
    "https://127.1/a.mp4", // short form
    "https://10.0.0.1/a.mp4",
    "https://172.16.5.4/a.mp4",
    "https://192.168.0.1/a.mp4",
    "https://169.254.169.254/a",
    "https://100.64.0.1/a",
    "https://0.0.0.0/a",
    "https://224.0.0.1/a",
    "https://[::1]/a",
    "https://[::]/a",
    "https://[::ffff:127.0.0.1]/a",
    "https://[::ffff:a00:1]/a",
    "https://[fe80::1]/a",
    "https://[fc00::1]/a",
    "https://[64:ff9b::7f00:1]/a",
    "https://8.8.8.8/a.mp4", // public, but IP literals are refused
    "not a url",
  ];
  for (const url of blocked) {
    it(`rejects ${url}`, async () => {
      const err = await rejected(url);
      expect(err.code).toBe("url_not_allowed");
      expect(err.status).toBe(400);
      expect(err.param).toBe("source.url");
    });
  }
});

describe("the development loopback setting", () => {
  it("allows 127.0.0.1 over http only when switched on", async () => {
    expect((await checkPublicUrl("http://127.0.0.1:9999/a.mp4", dev)).url.port).toBe("9999");
    expect((await checkPublicUrl("http://localhost:9999/a.mp4", dev)).url.port).toBe("9999");
    await rejected("http://127.0.0.1:9999/a.mp4", strict);
  });

  it("still refuses private, link-local and mixed hosts", async () => {
    for (const url of ["https://10.0.0.1/a", "https://169.254.169.254/a", "https://mixed.example.test/a", "http://public.example.test/a"]) {
      expect((await rejected(url, dev)).code).toBe("url_not_allowed");
    }
  });
});

describe("classifyAddress", () => {
  it("classifies", () => {
    expect(classifyAddress("93.184.216.34")).toBe("public");
    expect(classifyAddress("127.0.0.5")).toBe("loopback");
    expect(classifyAddress("::1")).toBe("loopback");
    expect(classifyAddress("198.18.0.1")).toBe("blocked");
    expect(classifyAddress("garbage")).toBe("blocked");
  });
});

describe("production refuses the development setting", () => {
  it("fails closed when ALLOW_LOOPBACK_URLS is on in production", async () => {
    const { buildServices } = await import("../../worker/middleware/services");
    // LOCAL_PAYMENTS off: the test bindings switch the payment stand-in on, which production refuses too.
    expect(() => buildServices({ ...env, ENVIRONMENT: "production", ALLOW_LOOPBACK_URLS: "true", LOCAL_PAYMENTS: "false" } as never)).toThrow(/misconfigured/);
    expect(buildServices({ ...env, ENVIRONMENT: "production", ALLOW_LOOPBACK_URLS: "false", LOCAL_PAYMENTS: "false" } as never).http.allowLoopback).toBe(false);
  });
});

describe("http:// links", () => {
  it("are refused before any DNS lookup", async () => {
    const asked: string[] = [];
    const spy: HostResolver = { resolve: async (host) => (asked.push(host), ["93.184.216.34"]) };
    const err = await rejected("http://public.example.test/game.mp4", { resolver: spy, allowLoopback: false, param: "source.url" });
    expect(err.message).toMatch(/https:\/\//);
    expect(asked).toEqual([]);
  });
});

describe("a resolver that cannot answer", () => {
  it("is a 503 dns_unavailable naming the field, with Retry-After, not a refusal of the URL", async () => {
    for (const host of ["dns-down.example.test", "dns-servfail.example.test", "dns-drop.example.test"]) {
      const err = await rejected(`https://${host}/game.mp4`);
      expect(err.code, host).toBe("dns_unavailable");
      expect(err.status).toBe(503);
      expect(err.param).toBe("source.url");
      expect(err.headers).toMatchObject({ "Retry-After": "5" });
      expect(err.message).toMatch(/retry/i);
    }
  });

  it("gives up on a resolver that does not answer within 5 s", async () => {
    await expect(resolver.resolve("dns-slow.example.test")).rejects.toBeInstanceOf(ResolverUnavailableError);
  }, 15_000);

  it("an unreachable resolver is unavailable too", async () => {
    const nowhere = new DohResolver("http://127.0.0.1:9/dns-query", runtimeFetch);
    await expect(nowhere.resolve("public.example.test")).rejects.toBeInstanceOf(ResolverUnavailableError);
  });

  it("a name that does not exist is the caller's 400, not a 503", async () => {
    expect((await rejected("https://nonexistent.example.test/a.mp4")).code).toBe("url_not_allowed");
  });
});
