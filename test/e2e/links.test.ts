// Links, camera-platform sources and webhooks by host name, in the real
// runtime: the Worker under `wrangler dev` (as `npm start` runs it, with
// ALLOW_LOOPBACK_URLS on) and a real runner process. Host names resolve
// through a local DNS-over-HTTPS stand-in (DOH_URL for the Worker, --doh-url
// for the runner) to 127.0.0.1, where one local server stands in for the
// video host, the platform's match pages and its CDN; the production
// resolver, URL policy and the runtime's own fetch do the rest.
import { FAILURE_MESSAGES } from "../../contract/failure-messages";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDohServer, type DohServer } from "../support/doh-server";
import { startLinkHost, type LinkHost } from "../support/link-host";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";
import { makeTestVideo, probeHeight, startRunner, waitForLog, type RunnerProcess } from "./runner-process";
import { sendToStack, startTestStack, type TestStack } from "./stack";

let stack: TestStack;
let doh: DohServer;
let host: LinkHost;
let receiver: WebhookReceiver;
let runner: RunnerProcess;
let key: string;
let orgId: string;
const dir = mkdtempSync(path.join(tmpdir(), "hoops-links-"));
const video = path.join(dir, "game.mp4");

const LOCAL = ["127.0.0.1"];

beforeAll(async () => {
  // Before the stack: a synchronous ffmpeg run stalls the event loop.
  makeTestVideo(video, { width: 640, height: 360, seconds: 2 });
  [doh, host, receiver] = await Promise.all([
    startDohServer({
      "videos.example.test": { A: LOCAL },
      "app.veo.co": { A: LOCAL },
      "media.veocdn.com": { A: LOCAL },
      "hooks.example.test": { A: LOCAL },
      "public-hooks.example.test": { A: ["93.184.216.34"] },
      "private-hooks.example.test": { A: ["10.0.0.7"] },
    }),
    startLinkHost(),
    startWebhookReceiver(),
  ]);
  host.files.set("game.mp4", video);
  host.matches.set("e2e-final", `https://media.veocdn.com:${host.port}/files/game.mp4`);
  host.matches.set("private-match", null);
  stack = await startTestStack({ dohUrl: doh.url });
  const org = await stack.ops.createOrganization("links e2e");
  orgId = org.id;
  await stack.ops.addCredits(org.id, { amount_cents: 10_000 });
  key = (await stack.ops.createApiKey(org.id, "e2e")).key;
  const token = (await stack.ops.createRunnerToken("links e2e")).token;
  runner = startRunner(stack.baseUrl, token, ["--pipeline", "media", "--doh-url", doh.url]);
});

afterAll(async () => {
  runner?.child.kill("SIGKILL");
  await stack?.destroy();
  await Promise.all([doh?.close(), host?.close(), receiver?.close()]);
});

async function api(method: string, p: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await sendToStack(() =>
    fetch(`${stack.baseUrl}${p}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    }),
  );
  return { status: res.status, body: await res.json(), headers: res.headers };
}

async function submitLink(url: string, extra: Record<string, unknown> = {}) {
  const res = await api("POST", "/v1/sessions", { source: { url }, duration_seconds: 60, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function waitFor(sessionId: string, timeoutMs = 120_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await api("GET", `/v1/sessions/${sessionId}`);
    if (body.status === "processed" || body.status === "failed") return body;
    if (Date.now() > deadline) throw new Error(`session ${sessionId} stuck in ${body.status}\n${runner.logs.slice(-20).join("\n")}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

const requestsFor = (p: string) => host.requests.filter((r) => r.path === p);

describe("link sessions through wrangler dev and a runner", () => {
  it("a link to a local HTTP server (127.0.0.1) is processed", async () => {
    const session = await submitLink(`${host.url}/files/game.mp4`, { metadata: { case: "literal" } });
    expect(session).toMatchObject({ status: "queued", source: { type: "url" } });
    const done = await waitFor(session.id);
    expect(done.error).toBeNull();
    expect(done).toMatchObject({ status: "processed", duration_seconds: 2 });
    expect(done.video).toMatchObject({ width: 640, height: 360, url: null });
    expect(probeHeight(done.video["360p"])).toBe(360);
  });

  it("a link by host name goes through the resolver, the Worker's fetch and the runner's pinned download", async () => {
    const link = `https://videos.example.test:${host.port}/files/game.mp4`;
    host.requests.length = 0;
    const session = await submitLink(link, { metadata: { case: "name" } });
    const done = await waitFor(session.id);
    expect(done.error).toBeNull();
    expect(done.status).toBe("processed");
    expect(done.source.url).toBe(link);
    expect(doh.queries).toContain("videos.example.test");
    const seen = requestsFor("/files/game.mp4");
    // The Worker's HEAD at submit and Range check at preparation (name in X-Forwarded-Host) …
    expect(seen.filter((r) => r.forwarded).map((r) => r.method)).toEqual(["HEAD", "GET"]);
    // … and the runner's download, connected to the checked address with the name as Host.
    expect(seen.filter((r) => !r.forwarded).map((r) => r.host)).toContain(`videos.example.test:${host.port}`);
    for (const r of seen) expect(r.host).toBe(`videos.example.test:${host.port}`);
  });

  it("a camera-platform match page is resolved to its CDN recording and processed", async () => {
    const page = `https://app.veo.co:${host.port}/matches/e2e-final/`;
    host.requests.length = 0;
    const session = await submitLink(page, { source: { type: "platform", url: page } });
    expect(session.source).toMatchObject({ type: "veo", url: page });
    const done = await waitFor(session.id);
    expect(done.error).toBeNull();
    expect(done.status).toBe("processed");
    expect(done.duration_seconds).toBe(2);
    expect(requestsFor("/matches/e2e-final/")).toEqual([{ method: "GET", path: "/matches/e2e-final/", host: `app.veo.co:${host.port}`, forwarded: true }]);
    const cdn = requestsFor("/files/game.mp4");
    expect(cdn.some((r) => r.forwarded && r.host === `media.veocdn.com:${host.port}`)).toBe(true); // the Worker's check
    expect(cdn.some((r) => !r.forwarded && r.host === `media.veocdn.com:${host.port}`)).toBe(true); // the runner's download
  });

  it("a match page without a recording fails source_invalid", async () => {
    const page = `https://app.veo.co:${host.port}/matches/private-match/`;
    const done = await waitFor((await submitLink(page)).id);
    expect(done).toMatchObject({ status: "failed", error: { code: "source_invalid" } });
    expect(done.error.message).toMatch(/no downloadable recording/);
  });

  it("a link that cannot be fetched fails source_unavailable, one that is not a video source_invalid, each saying what to do", async () => {
    const missing = await waitFor((await submitLink(`https://videos.example.test:${host.port}/status/404`)).id);
    expect(missing.error).toEqual({
      code: "source_unavailable",
      message: "The link answered HTTP 404 (not found). It must download without signing in: check that the file is public and the link has not expired, then submit again.",
    });
    const page = await waitFor((await submitLink(`https://videos.example.test:${host.port}/page`)).id);
    expect(page.error).toEqual({ code: "source_invalid", message: "The link serves a web page (text/html), not an MP4 or MOV video file. Link to the video file itself." });
    for (const failed of [missing, page]) expect(failed.cost_cents).toBeNull();
    expect((await api("GET", "/v1/balance")).body.held_cents).toBe(0);
  });

  it("a file that is not a video fails with a sentence, never the runner's paths or tool output", async () => {
    const done = await waitFor((await submitLink(`https://videos.example.test:${host.port}/garbage.mp4`)).id);
    expect(done.status).toBe("failed");
    expect(done.error).toEqual({ code: "source_invalid", message: FAILURE_MESSAGES.source_invalid });
    // The detail is in the runner's log, under the job's id (logged just after the runner reported the failure).
    const line = await waitForLog(runner, (l) => l.includes('"job failed"') && l.includes(done.id), 10_000);
    expect(JSON.parse(line)).toMatchObject({ session_id: done.id, code: "source_invalid", detail: expect.stringMatching(/source\.video/) });
  });
});

describe("webhook endpoints by host name", () => {
  const receiverPort = () => new URL(receiver.url).port;

  it("accepts a name that resolves to a public address, refuses one that resolves to a private one", async () => {
    const ok = await api("POST", "/v1/webhook_endpoints", { url: "https://public-hooks.example.test/hooks" });
    expect(ok.status).toBe(200);
    expect(ok.body.url).toBe("https://public-hooks.example.test/hooks");
    const refused = await api("POST", "/v1/webhook_endpoints", { url: "https://private-hooks.example.test/hooks" });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ type: "invalid_request_error", code: "url_not_allowed", param: "url" });
    await api("DELETE", `/v1/webhook_endpoints/${ok.body.id}`); // nothing can be delivered there from here
  });

  it("delivers to a receiver registered by name (loopback opt-in), signed so that stripe verifies it", async () => {
    const created = await api("POST", "/v1/webhook_endpoints", { url: `https://hooks.example.test:${receiverPort()}/in/by-name` });
    expect(created.status).toBe(200);
    receiver.inbox("by-name").config = { secret: created.body.secret };

    const test = await api("POST", `/v1/webhook_endpoints/${created.body.id}/test`);
    expect(test.body).toMatchObject({ delivered: true, status_code: 200, error: null });

    // An event emitted now goes through the webhooks queue consumer to the same receiver.
    const emitted = await stack.ops.request("POST", `/admin/v1/organizations/${orgId}/events`, { type: "session.processed", object: { id: "sess_byname", object: "session" } });
    const deadline = Date.now() + 60_000;
    const arrived = () => receiver.inbox("by-name").received.some((d) => d.eventId === emitted.id);
    while (!arrived() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    // (A session event of the tests above, emitted just after its session failed, may arrive too.)
    const got = receiver.inbox("by-name").received;
    expect(got.map((d) => d.eventId)).toEqual(expect.arrayContaining([test.body.event, emitted.id]));
    for (const delivery of got) {
      expect(delivery.verifyError).toBeNull();
      expect(delivery.verified).toBe(true);
      expect(delivery.headers["x-forwarded-host"]).toBe(`hooks.example.test:${receiverPort()}`);
    }
  });
});
