// The Worker's outbound client: every hop checked, timeouts, redirects, the
// development pin to a checked loopback address, and capped body reads.
// (Under vitest-pool-workers `fetch` is not workerd's; the same client runs
// under wrangler dev in test/e2e/links.test.ts.)
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../worker/errors";
import { buildServices } from "../../worker/middleware/services";
import { HttpClient, OutboundError, runtimeFetch } from "../../worker/services/http-client";
import { BodyTooLargeError, DohResolver, readTextCapped } from "../../contract/url-policy";
import { VIDEOS } from "./session-fixtures";

const resolver = new DohResolver(env.DOH_URL!, runtimeFetch);
const dev = new HttpClient(resolver, true);
const port = new URL(VIDEOS).port;

describe("HttpClient.fetchPublic", () => {
  it("is what buildServices hands out, with the deployment's loopback setting", () => {
    const services = buildServices(env);
    expect(services.http).toBeInstanceOf(HttpClient);
    expect(services.http.allowLoopback).toBe(true);
    expect(buildServices({ ...env, ALLOW_LOOPBACK_URLS: "false" }).http.allowLoopback).toBe(false);
  });

  it("connects a host name that resolves to loopback to that address (development only), keeping the name in X-Forwarded-Host", async () => {
    const { response, url } = await dev.fetchPublic(`https://loopback.example.test:${port}/echo?x=1`, { param: "source.url", timeoutMs: 5000, maxRedirects: 0 });
    const echoed: any = await response.json();
    expect(echoed.url).toBe("/echo?x=1");
    expect(echoed.headers["x-forwarded-host"]).toBe(`loopback.example.test:${port}`);
    expect(url.hostname).toBe("loopback.example.test");
  });

  it("refuses the same name without the development setting", async () => {
    const strict = new HttpClient(resolver, false);
    const err = await strict.fetchPublic(`https://loopback.example.test:${port}/echo`, { param: "url", timeoutMs: 5000, maxRedirects: 0 }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: "url_not_allowed", param: "url" });
  });

  it("follows redirects up to the limit, checking every hop", async () => {
    const target = `${VIDEOS}/echo`;
    const once = `${VIDEOS}/redirect?to=${encodeURIComponent(target)}`;
    const twice = `${VIDEOS}/redirect?to=${encodeURIComponent(once)}`;
    const followed = await dev.fetchPublic(twice, { param: "source.url", timeoutMs: 5000, maxRedirects: 2 });
    expect(followed.response.status).toBe(200);
    expect(followed.url.pathname).toBe("/echo");
    const stopped = await dev.fetchPublic(twice, { param: "source.url", timeoutMs: 5000, maxRedirects: 1 });
    expect(stopped.response.status).toBe(302);
    const toPrivate = `${VIDEOS}/redirect?to=${encodeURIComponent("https://private.example.test/a.mp4")}`;
    await expect(dev.fetchPublic(toPrivate, { param: "source.url", timeoutMs: 5000, maxRedirects: 3 })).rejects.toMatchObject({ code: "url_not_allowed" });
  });

  it("times out a host that does not answer, as an OutboundError a customer may read", async () => {
    const err = await dev.fetchPublic(`${VIDEOS}/slow?ms=3000`, { param: "source.url", timeoutMs: 200, maxRedirects: 0 }).catch((e) => e);
    expect(err).toBeInstanceOf(OutboundError);
    expect(err).toMatchObject({ kind: "timeout", message: "no answer within 0.2 s" });
  });

  it("reports a refused connection as a network OutboundError, without the runtime's wording", async () => {
    const err = await dev.fetchPublic("http://127.0.0.1:9/x", { param: "source.url", timeoutMs: 2000, maxRedirects: 0 }).catch((e) => e);
    expect(err).toBeInstanceOf(OutboundError);
    expect(err).toMatchObject({ kind: "network", message: "the connection failed" });
  });

  it("answers 503 dns_unavailable when the resolver is down", async () => {
    const err = await dev.fetchPublic("https://dns-down.example.test/a.mp4", { param: "source.url", timeoutMs: 2000, maxRedirects: 0 }).catch((e) => e);
    expect(err).toMatchObject({ code: "dns_unavailable", status: 503 });
  });
});

describe("readTextCapped", () => {
  it("reads a page under the cap and stops past it, also without Content-Length", async () => {
    const { response: small } = await dev.fetchPublic(`${VIDEOS}/page?bytes=1000`, { param: "source.url", timeoutMs: 5000, maxRedirects: 0 });
    expect((await readTextCapped(small, 2000)).length).toBe(1000);
    const { response: big } = await dev.fetchPublic(`${VIDEOS}/page?bytes=300000`, { param: "source.url", timeoutMs: 5000, maxRedirects: 0 });
    expect(big.headers.get("Content-Length")).toBeNull();
    await expect(readTextCapped(big, 100_000)).rejects.toBeInstanceOf(BodyTooLargeError);
  });
});
