// The URL policy as production runs it — ALLOW_LOOPBACK_URLS off — in the
// real runtime (`wrangler dev`), with host names resolved through a local
// DNS-over-HTTPS stand-in: public names are accepted, names that resolve to
// private or loopback addresses are refused with 400 naming the field,
// http:// is refused before any lookup, and a resolver that is down or slow
// is a retryable 503 whose retry with the same Idempotency-Key succeeds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDohServer, type DohServer } from "../support/doh-server";
import { startTestStack, type TestStack } from "./stack";

let stack: TestStack;
let doh: DohServer;
let key: string;

beforeAll(async () => {
  doh = await startDohServer({
    "public.example.test": { A: ["93.184.216.34"] },
    "private.example.test": { A: ["10.0.0.7"] },
    "metadata.example.test": { A: ["169.254.169.254"] },
    "loopback.example.test": { A: ["127.0.0.1"] },
    "v6loop.example.test": { AAAA: ["::1"] },
  });
  stack = await startTestStack({ allowLoopbackUrls: false, dohUrl: doh.url });
  const org = await stack.ops.createOrganization("url policy e2e");
  await stack.ops.addCredits(org.id, { amount_cents: 10_000 });
  key = (await stack.ops.createApiKey(org.id, "e2e")).key;
});

afterAll(async () => {
  await stack?.destroy();
  await doh?.close();
});

async function api(method: string, p: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${stack.baseUrl}${p}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body !== undefined ? { "Content-Type": "application/json" } : {}), ...headers },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

describe("host names under the production policy", () => {
  it("registers a webhook endpoint whose name resolves to a public address", async () => {
    const res = await api("POST", "/v1/webhook_endpoints", { url: "https://public.example.test/hooks" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: "webhook_endpoint", url: "https://public.example.test/hooks", secret: expect.stringMatching(/^hws_stg_/) });
    expect(doh.queries).toContain("public.example.test");
  });

  it("refuses names that resolve to private, link-local or loopback addresses with 400 naming the field", async () => {
    for (const name of ["private.example.test", "metadata.example.test", "loopback.example.test", "v6loop.example.test"]) {
      const hook = await api("POST", "/v1/webhook_endpoints", { url: `https://${name}/hooks` });
      expect(hook.status, name).toBe(400);
      expect(hook.body.error).toMatchObject({ type: "invalid_request_error", code: "url_not_allowed", param: "url" });
      const session = await api("POST", "/v1/sessions", { source: { url: `https://${name}/game.mp4` }, duration_seconds: 60 });
      expect(session.status, name).toBe(400);
      expect(session.body.error).toMatchObject({ code: "url_not_allowed", param: "source.url" });
    }
    // Loopback literals too: the development opt-in is off.
    const literal = await api("POST", "/v1/webhook_endpoints", { url: "http://127.0.0.1:9/hooks" });
    expect(literal.body.error).toMatchObject({ code: "url_not_allowed", param: "url" });
    expect((await api("GET", "/v1/balance")).body.held_cents).toBe(0);
  });

  it("refuses http:// links before any DNS lookup", async () => {
    const res = await api("POST", "/v1/sessions", { source: { url: "http://never-looked-up.example.test/game.mp4" }, duration_seconds: 60 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "url_not_allowed", param: "source.url", message: "`source.url` must be an https:// URL." });
    const hook = await api("POST", "/v1/webhook_endpoints", { url: "http://never-looked-up.example.test/hooks" });
    expect(hook.body.error).toMatchObject({ code: "url_not_allowed", param: "url" });
    expect(doh.queries).not.toContain("never-looked-up.example.test");
  });
});

describe("a DNS resolver that is down or slow", () => {
  it("answers a submit with 503 dns_unavailable and Retry-After; the retry with the same key submits once", async () => {
    doh.zone["flaky-video.example.test"] = { fault: "slow" }; // answers after 6 s; the Worker gives up at 5
    const body = { source: { url: "https://flaky-video.example.test/game.mp4" }, duration_seconds: 600 };
    const slow = await api("POST", "/v1/sessions", body, { "Idempotency-Key": "e2e-dns-1" });
    expect(slow.status).toBe(503);
    expect(slow.headers.get("Retry-After")).toBe("5");
    expect(slow.headers.get("Request-Id")).toMatch(/^req_/);
    expect(slow.body.error).toMatchObject({ type: "api_error", code: "dns_unavailable", param: "source.url" });
    expect((await api("GET", "/v1/balance")).body.held_cents).toBe(0);

    doh.zone["flaky-video.example.test"] = { A: ["93.184.216.34"] };
    const ok = await api("POST", "/v1/sessions", body, { "Idempotency-Key": "e2e-dns-1" });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("Idempotent-Replayed")).toBeNull();
    expect(ok.body).toMatchObject({ status: "queued", source: { type: "url", url: "https://flaky-video.example.test/game.mp4" } });
    const replay = await api("POST", "/v1/sessions", body, { "Idempotency-Key": "e2e-dns-1" });
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(replay.body.id).toBe(ok.body.id);
    expect((await api("GET", "/v1/sessions")).body.data.filter((s: any) => s.source.url === body.source.url)).toHaveLength(1);
  });

  it("answers a webhook registration with 503 when the resolver drops the connection; the retry with the same key registers", async () => {
    doh.zone["flaky-hooks.example.test"] = { fault: "drop" };
    const body = { url: "https://flaky-hooks.example.test/hooks" };
    const down = await api("POST", "/v1/webhook_endpoints", body, { "Idempotency-Key": "e2e-dns-2" });
    expect(down.status).toBe(503);
    expect(down.headers.get("Retry-After")).toBe("5");
    expect(down.body.error).toMatchObject({ code: "dns_unavailable", param: "url" });

    doh.zone["flaky-hooks.example.test"] = { A: ["93.184.216.34"] };
    const ok = await api("POST", "/v1/webhook_endpoints", body, { "Idempotency-Key": "e2e-dns-2" });
    expect(ok.status).toBe(200);
    const replay = await api("POST", "/v1/webhook_endpoints", body, { "Idempotency-Key": "e2e-dns-2" });
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(replay.body).toEqual(ok.body);
  });
});
