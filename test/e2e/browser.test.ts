// The session hub page and the API reference in a real browser (headless Chromium from Debian,
// driven by playwright-core), against the whole system: a generated game uploaded to `wrangler dev`,
// analysed by a real runner, opened through a share link from `POST /v1/sessions/{id}/share_links`.
// Screenshots of every page land in test/.artifacts/ (UPDATE_SCREENSHOTS=1 also refreshes the
// README's docs/img/hub.png).
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateGame, type GroundTruth } from "../../scripts/synth/generate";
import type { Env } from "../../worker/env";
import { createShareLink } from "../../worker/services/share-links";
import { artifact, launchChromium } from "../support/browser";
import { startRunner, type RunnerProcess } from "./runner-process";
import { sendToStack, startTestStack, type TestStack } from "./stack";

const HUB_SIGNING_SECRET = "e2e-hub-signing-secret-0123456789abcdef";
const NAMES = ["Maya Lopez", "Ada Park", "Noor Haddad", "Lena Fischer", "Iris Chen", "Zoe Adams", "Tia Moreau", "Kim Osei", "Ana Silva", "Eva Novak"];

let stack: TestStack;
let runner: RunnerProcess;
let browser: Browser;
let truth: GroundTruth;
let key: string;
let session: any;
let hubUrl: string;
/** What the page opened while the session was queued did by itself until it showed the game. */
let selfRefresh: { firstStatus: string; loads: number };

const api = async (p: string, init: RequestInit = {}) => {
  const res = await sendToStack(() => fetch(`${stack.baseUrl}${p}`, { ...init, headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", ...init.headers } }));
  return { status: res.status, body: (await res.json()) as any };
};

beforeAll(async () => {
  browser = await launchChromium();
  const dir = mkdtempSync(path.join(tmpdir(), "hoops-browser-e2e-"));
  // The seed of test/e2e/analysis.test.ts: a game whose shots the pipeline finds.
  truth = await generateGame({ seed: 4242, seconds: 30, camera: "wide", size: "720p", out: dir, players: 4, preset: "ultrafast" });
  const file = path.join(dir, path.basename(truth.video));
  stack = await startTestStack({ vars: { HUB_SIGNING_SECRET } });
  const org = await stack.ops.createOrganization("hub");
  key = (await stack.ops.createApiKey(org.id)).key;
  await stack.ops.addCredits(org.id, { amount_cents: 1000 });
  const token = (await stack.ops.createRunnerToken("hub")).token;

  const size = statSync(file).size;
  const upload = (await api("/v1/uploads", { method: "POST", body: JSON.stringify({ content_type: "video/mp4", size }) })).body;
  const put = await sendToStack(() => fetch(upload.upload_url, { method: "PUT", headers: { "Content-Type": "video/mp4" }, body: readFileSync(file) }));
  expect(put.status).toBe(200);
  // Rosters name every player by jersey, so the box scores show names.
  const rosters = [0, 1].map((team) => ({
    team,
    name: team === 0 ? "Eagles" : "Hawks",
    players: truth.players.filter((p) => p.team === team).map((p, i) => ({ jersey: p.jersey, name: NAMES[(team * 5 + i) % NAMES.length] })),
  }));
  const submitted = await api("/v1/sessions", {
    method: "POST",
    body: JSON.stringify({ source: { type: "upload", upload_id: upload.id }, options: { session_type: "2v2" }, metadata: { title: "Eagles vs Hawks" }, rosters }),
  });
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
  const link = await api(`/v1/sessions/${submitted.body.id}/share_links`, { method: "POST", body: "{}" });
  expect(link.status).toBe(200);
  hubUrl = link.body.url;

  // Opened before any runner exists, the page shows the queue and keeps reloading itself until
  // the game is there: no test code navigates it.
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  let loads = 0;
  page.on("load", () => loads++);
  await page.goto(hubUrl);
  const firstStatus = (await page.textContent("#status")) ?? "";
  await page.screenshot({ path: artifact("hub-queued.png"), fullPage: true });
  runner = startRunner(stack.baseUrl, token);
  try {
    await page.waitForSelector("#game-video, #failure", { timeout: 240_000 });
  } catch (err) {
    throw new Error(`the hub page never showed the result:\n${runner.logs.slice(-30).join("\n")}\n${err}`);
  }
  selfRefresh = { firstStatus, loads };
  await page.close();
  session = (await api(`/v1/sessions/${submitted.body.id}`)).body;
}, 300_000);

afterAll(async () => {
  runner?.child.kill("SIGKILL");
  await browser?.close();
  await stack?.destroy();
});

async function openHub(opts: { width?: number; height?: number; mobile?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 900 },
    ...(opts.mobile ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
  });
  const page = await context.newPage();
  const res = await page.goto(hubUrl);
  expect(res?.status()).toBe(200);
  return page;
}

const videoTime = (page: Page, selector: string) => page.$eval(selector, (v: any) => v.currentTime);

describe("the hub page of a processed game, in Chromium", () => {
  it("refreshed itself from the queue to the finished game", () => {
    expect(session.status, runner.logs.slice(-20).join("\n")).toBe("processed");
    expect(selfRefresh.firstStatus).toBe("Queued");
    expect(selfRefresh.loads).toBeGreaterThanOrEqual(2);
  });

  it("shows one marker per shot on the chart (or in the list beside it) with the right made/missed split", async () => {
    const page = await openHub();
    const shots: any[] = session.shots.data;
    expect(shots.length).toBeGreaterThanOrEqual(3);
    expect(shots.length).toBe(session.shots.total_count);
    const markers = await page.$$eval("svg.court .shot", (els) => els.map((e) => ({ id: e.getAttribute("data-shot"), made: e.classList.contains("made") })));
    const listed = await page.$$eval("#unplaced-shots li.shot", (els) => els.map((e) => ({ id: e.getAttribute("data-shot"), made: e.classList.contains("made") })));
    const located = shots.filter((s) => s.location.shot_world_normed !== null);
    expect(markers.map((m) => m.id).sort()).toEqual(located.map((s) => s.id).sort());
    expect(listed.map((m) => m.id).sort()).toEqual(shots.filter((s) => s.location.shot_world_normed === null).map((s) => s.id).sort());
    const all = [...markers, ...listed];
    expect(all.filter((m) => m.made).length).toBe(shots.filter((s) => s.made).length);
    expect(all.filter((m) => m.made).length).toBe(truth.shots.filter((s) => s.made).length);
    expect(all.filter((m) => !m.made).length).toBe(truth.shots.filter((s) => !s.made).length);
    // Box scores: a table per team with the rosters' names, team totals, game totals equal to the API's.
    expect(await page.$$eval("table.box-score caption", (els) => els.map((e) => e.textContent))).toEqual(expect.arrayContaining(["Eagles", "Hawks", "Game totals"]));
    const named = await page.$$eval("table.box-score tbody th", (els) => els.map((e) => e.textContent ?? ""));
    expect(named.some((n) => NAMES.some((name) => n.startsWith(name)))).toBe(true);
    expect(await page.textContent("#game-totals tfoot td")).toBe(String(session.totals.points));
    // The first frame, not a loading spinner, in the screenshot.
    await page.waitForFunction(([sel, min]) => (globalThis as any).document.querySelector(sel).readyState >= min, ["#game-video", 1] as const, { timeout: 30_000 });
    await page.waitForLoadState("networkidle");
    await page.screenshot({ path: artifact("hub.png"), fullPage: true });
    if (process.env.UPDATE_SCREENSHOTS) {
      const readme = path.resolve(import.meta.dirname, "../../docs/img/hub.png");
      mkdirSync(path.dirname(readme), { recursive: true });
      copyFileSync(artifact("hub.png"), readme);
    }
    await page.context().close();
  });

  it("plays the game video and seeks in it (Range requests on the signed rendition URL)", async () => {
    const page = await openHub();
    const partial: string[] = [];
    page.on("response", (r) => {
      if (r.status() === 206 && r.url().includes("/media/")) partial.push(r.url());
    });
    const src = await page.$eval("#game-video", (v: any) => v.currentSrc);
    expect(src).toMatch(/\/media\/.+\.mp4\?exp=\d+&sig=/);
    await page.$eval("#game-video", async (video: any) => {
      video.muted = true;
      await video.play();
    });
    await page.waitForFunction(([sel, min]) => (globalThis as any).document.querySelector(sel).currentTime > min, ["#game-video", 1] as const, { timeout: 30_000 });
    // Seek past what was buffered; the player asks for a byte range and keeps playing from there.
    await page.$eval("#game-video", (v: any) => (v.currentTime = 20));
    await page.waitForFunction(([sel, min]) => (globalThis as any).document.querySelector(sel).currentTime > min, ["#game-video", 20.5] as const, { timeout: 30_000 });
    expect(await page.$eval("#game-video", (v: any) => v.error)).toBeNull();
    expect(partial.length).toBeGreaterThan(0);
    await page.context().close();
  });

  it("opens a highlight from the reel and plays it", async () => {
    const page = await openHub();
    const first = page.locator(".reel a[data-clip]").first();
    const clipUrl = await first.getAttribute("data-clip");
    await page.$eval("#clip-video", (v: any) => (v.muted = true));
    await first.click();
    await page.waitForFunction(([sel, min]) => (globalThis as any).document.querySelector(sel).currentTime > min, ["#clip-video", 0.5] as const, { timeout: 30_000 });
    expect(await page.$eval("#clip-video", (v: any) => v.currentSrc)).toBe(clipUrl);
    expect(await first.getAttribute("aria-current")).toBe("true");
    expect(await page.textContent("#clip-caption")).toContain("Now playing:");
    await page.context().close();
  });

  it("answers hover and keyboard on the chart: details of the shot, Enter plays its clip", async () => {
    const page = await openHub();
    const marker = page.locator("svg.court .shot").nth(0);
    await marker.hover();
    const label = (await marker.getAttribute("data-label"))!;
    expect(label).toMatch(/^\d+:\d\d · (2-pointer|3-pointer|Free throw|Field goal), (made|missed) · \d+ points? · .+/);
    expect(await page.textContent("#shot-detail")).toBe(label);

    // Tab from the last reel entry reaches the first chart marker; Enter plays that shot's clip.
    await page.mouse.move(0, 0);
    await page.locator(".reel a, .reel span.noclip").last().focus();
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute("data-shot"));
    expect(focused).toBe(await marker.getAttribute("data-shot"));
    expect(await page.textContent("#shot-detail")).toBe(label);
    const clip = await marker.getAttribute("data-clip");
    if (clip) {
      await page.$eval("#clip-video", (v: any) => (v.muted = true));
      await page.keyboard.press("Enter");
      await page.waitForFunction(([sel, min]) => (globalThis as any).document.querySelector(sel).currentTime > min, ["#clip-video", 0.3] as const, { timeout: 30_000 });
      expect(await page.$eval("#clip-video", (v: any) => v.currentSrc)).toBe(clip);
    }
    await page.context().close();
  });

  it("fits a 375 px phone screen without horizontal scrolling; a tap shows a shot's details", async () => {
    const page = await openHub({ width: 375, height: 812, mobile: true });
    expect(await page.evaluate(() => (globalThis as any).document.compatMode)).toBe("CSS1Compat"); // standards mode
    const widths: any = await page.evaluate(() => {
      const { document, innerWidth } = globalThis as any;
      return { doc: document.documentElement.scrollWidth, body: document.body.scrollWidth, viewport: innerWidth };
    });
    expect(widths.viewport).toBe(375);
    expect(widths.doc).toBeLessThanOrEqual(375);
    expect(widths.body).toBeLessThanOrEqual(375);
    const marker = page.locator("svg.court .shot").nth(0);
    await marker.scrollIntoViewIfNeeded();
    await page.$eval("#clip-video", (v: any) => (v.muted = true));
    await marker.tap();
    expect(await page.textContent("#shot-detail")).toBe(await marker.getAttribute("data-label"));
    await page.screenshot({ path: artifact("hub-phone.png"), fullPage: true });
    await page.context().close();
  });

  it("refuses a tampered or an expired link with a page that says why", async () => {
    const page = await browser.newPage();
    const tampered = new URL(hubUrl);
    const sig = tampered.searchParams.get("sig")!;
    tampered.searchParams.set("sig", `${sig.slice(0, -1)}${sig.endsWith("A") ? "B" : "A"}`);
    let res = await page.goto(tampered.href);
    expect(res?.status()).toBe(403);
    expect(await page.textContent("h1")).toBe("This link is not valid");
    expect(await page.$("#game-video")).toBeNull();

    // Minted with the deployment's hub key, as it was two days ago, for an hour.
    const hubEnv = { HUB_SIGNING_SECRET } as Env;
    const expired = await createShareLink(hubEnv, stack.baseUrl, session.id, { expiresInSeconds: 3600, now: Math.floor(Date.now() / 1000) - 2 * 86400 });
    res = await page.goto(expired.url);
    expect(res?.status()).toBe(403);
    expect(await page.textContent("h1")).toBe("This link has expired");
    await page.screenshot({ path: artifact("hub-expired.png") });
    // The same key, not expired: the page opens (the refusal above is the expiry, not the key).
    const fresh = await createShareLink(hubEnv, stack.baseUrl, session.id, { expiresInSeconds: 3600, now: Math.floor(Date.now() / 1000) });
    expect((await page.goto(fresh.url))?.status()).toBe(200);
    await page.close();
  });
});

describe("the API reference in Chromium", () => {
  async function openDocs(p: string) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    const errors: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    page.on("pageerror", (e) => errors.push(String(e)));
    const res = await page.goto(`${stack.baseUrl}${p}`, { waitUntil: "networkidle" });
    expect(res?.status()).toBe(200);
    return { page, requests, errors };
  }

  async function operations(p: string) {
    const doc: any = await (await fetch(`${stack.baseUrl}${p}`)).json();
    return Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([route, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path: route, summary: op.summary as string })),
    );
  }

  it("/docs lists every public endpoint, loading nothing from outside the Worker", async () => {
    const { page, requests, errors } = await openDocs("/docs");
    await page.waitForSelector("a.endpoint .endpoint-path");
    const listed = await page.$$eval("a.endpoint", (els) =>
      els.map((e) => `${(e.querySelector(".endpoint-method")?.textContent ?? "").trim().toUpperCase()} ${e.querySelector(".endpoint-path")?.textContent?.trim()}`),
    );
    const ops = await operations("/v1/openapi.json");
    expect(ops.length).toBeGreaterThanOrEqual(16);
    expect([...new Set(listed)].sort()).toEqual(ops.map((o) => `${o.method} ${o.path}`).sort());
    const text: string = await page.evaluate(() => (globalThis as any).document.body.innerText);
    for (const op of ops) expect(text, op.summary).toContain(op.summary);
    // An operation shows its example request and answer (worker/schemas/examples.ts).
    const getSession = ops.find((o) => o.method === "GET" && o.path === "/v1/sessions/{id}")!;
    await page.getByText(getSession.summary).first().click();
    await page.waitForFunction(() => (globalThis as any).document.body.innerText.includes("League final"), null, { timeout: 15_000 });
    expect(requests.filter((u) => !u.startsWith(stack.baseUrl))).toEqual([]);
    expect(errors).toEqual([]);
    await page.screenshot({ path: artifact("docs-operation.png") });
    await page.goto(`${stack.baseUrl}/docs`, { waitUntil: "networkidle" });
    await page.screenshot({ path: artifact("docs.png") });
    await page.close();
  });

  it("/docs/runner is the runner API's reference for operators", async () => {
    const { page, requests, errors } = await openDocs("/docs/runner");
    const ops = await operations("/runner/v1/openapi.json");
    // claim, heartbeat, measured, outputs, complete, fail, release
    expect(ops.length).toBe(7);
    // The title shows before the operations on a busy machine: wait for every summary, then read.
    const summaries = ops.map((o) => o.summary);
    await page
      .waitForFunction((want: string[]) => want.every((s) => (globalThis as any).document.body.innerText.includes(s)), summaries, { timeout: 60_000 })
      .catch(() => {});
    const text: string = await page.evaluate(() => (globalThis as any).document.body.innerText);
    expect(text).toContain("Runner API");
    for (const op of ops) expect(text, op.summary).toContain(op.summary);
    expect(requests.filter((u) => !u.startsWith(stack.baseUrl))).toEqual([]);
    expect(errors).toEqual([]);
    await page.screenshot({ path: artifact("docs-runner.png") });
    await page.close();
  });
});
