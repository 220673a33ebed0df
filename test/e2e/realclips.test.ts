// Real footage through the whole system: clips from ../shared/realclips (read at run time; never
// copied into the repository) are uploaded to the local API, analysed by a runner with the default
// trained detector, and the sessions are checked against the hand-labelled truth (within one
// attempt and one make), including a clip without a shot, which must fail `no_shots` and charge nothing;
// and a real session's hub page in Chromium: shots registered on the court on the chart, the others in
// the list beside it with the legend saying why, and the court type named above the chart (issue 25, point 5).
import { createReadStream, statSync } from "node:fs";
import path from "node:path";
import * as tus from "tus-js-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readManifest, REALCLIPS_DIR, type ManifestClip } from "../../bench/realclips-manifest";
import { artifact, launchChromium } from "../support/browser";
import { startRunner, type RunnerProcess } from "./runner-process";
import { reserveUpload, sendToStack, startTestStack, type TestStack } from "./stack";

// chonyy_outdoor_45deg_2x_3shots and chonyy_outdoor_5shots: their courts' lines are registered
// (docs/analysis.md, issue 25; chonyy_outdoor_5shots since the limit on lines in one direction), so
// their shots have court positions; brettfazio_gym_formshooting_2shots: a gym floor, registered as
// NCAA since the learned line mask, one of its two shots placed; ashwin_driveway_front_portrait: a
// driveway hoop, no court, its shot off the chart.
const CLIPS = ["chonyy_outdoor_5shots", "ashwin_driveway_front_portrait", "jbardelli_arena_noshot", "chonyy_outdoor_45deg_2x_3shots", "brettfazio_gym_formshooting_2shots"];
/** The rule book each registered clip's court is painted to (by eye; docs/analysis.md, issue 25). */
const COURT_LABELS: Record<string, string> = { chonyy_outdoor_45deg_2x_3shots: "FIBA", chonyy_outdoor_5shots: "FIBA", brettfazio_gym_formshooting_2shots: "NCAA" };

let stack: TestStack;
let key: string;
let runner: RunnerProcess;
const sessions = new Map<string, { clip: ManifestClip; session: any }>();

async function submit(clip: ManifestClip): Promise<string> {
  const file = path.join(REALCLIPS_DIR, clip.file);
  const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
  const size = statSync(file).size;
  const upload = await reserveUpload(stack.baseUrl, key, size);
  await new Promise<void>((resolve, reject) =>
    new tus.Upload(createReadStream(file), { uploadUrl: upload.upload_url, uploadSize: size, chunkSize: 5 * 1024 * 1024, onError: reject, onSuccess: () => resolve() }).start(),
  );
  const res = await sendToStack(() => fetch(`${stack.baseUrl}/v1/sessions`, { method: "POST", headers, body: JSON.stringify({ source: { type: "upload", upload_id: upload.id }, metadata: { clip: path.basename(clip.file) } }) }));
  const body: any = await res.json();
  if (!res.ok) throw new Error(`submit ${clip.file}: ${res.status} ${JSON.stringify(body)}`);
  return body.id;
}

beforeAll(async () => {
  stack = await startTestStack();
  const org = await stack.ops.createOrganization("real footage");
  key = (await stack.ops.createApiKey(org.id)).key;
  await stack.ops.addCredits(org.id, { amount_cents: 1000 });
  const token = (await stack.ops.createRunnerToken("realclips")).token;
  const manifest = readManifest();
  const ids = new Map<string, ManifestClip>();
  for (const name of CLIPS) {
    const clip = manifest.find((c) => c.file.includes(name))!;
    ids.set(await submit(clip), clip);
  }
  // The default detector: the trained CenterNet, not the synthetic fixture.
  runner = startRunner(stack.baseUrl, token, [], { env: { HOOPS_DETECTOR: "" } });
  const headers = { Authorization: `Bearer ${key}` };
  const deadline = Date.now() + 420_000;
  for (const [id, clip] of ids) {
    for (;;) {
      const session: any = await (await fetch(`${stack.baseUrl}/v1/sessions/${id}`, { headers })).json();
      if (session.status === "processed" || session.status === "failed") {
        sessions.set(path.basename(clip.file, ".mp4"), { clip, session });
        break;
      }
      if (Date.now() > deadline) throw new Error(`${clip.file} still ${session.status}:\n${runner.logs.slice(-30).join("\n")}`);
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}, 480_000);

afterAll(async () => {
  runner?.child.kill("SIGKILL");
  await stack?.destroy();
});

describe("real clips through the local API with the default detector", () => {
  for (const name of CLIPS.filter((n) => !n.includes("noshot"))) {
    it(`${name}: processed, attempts and makes within one of the labels, a highlight per shot`, () => {
      const { clip, session } = sessions.get(name)!;
      expect(session.error, runner.logs.slice(-20).join("\n")).toBeNull();
      expect(session.status).toBe("processed");
      const shots = session.shots.data;
      expect(Math.abs(shots.length - clip.attempts)).toBeLessThanOrEqual(1);
      expect(Math.abs(shots.filter((s: any) => s.made).length - clip.makes)).toBeLessThanOrEqual(1);
      for (const s of shots) {
        expect(s.highlight).toMatch(/^hl_/);
        expect(s.location.hoop_image_normed).not.toBeNull();
      }
      expect(session.highlights.data).toHaveLength(shots.length);
      expect(session.cost_cents).toBeGreaterThan(0);
    });
  }

  it("a clip without a shot fails and charges nothing", async () => {
    const { session } = sessions.get("jbardelli_arena_noshot")!;
    expect(session.status).toBe("failed");
    // Nobody shoots; whether the dribbled ball ever came within RIM_PLAY_DEFAULTS.NEAR_RIM_WIDTHS of
    // the rim decides between "no shot at the rim" and "no rim the ball came to" (rules/hoop.ts,
    // ballCameToRim): with the fine-tuned detector's settings it never does, so `no_hoops`.
    expect(["no_shots", "no_hoops"]).toContain(session.error.code);
    expect(session.cost_cents).toBeNull();
    const usage: any = await (await fetch(`${stack.baseUrl}/v1/usage`, { headers: { Authorization: `Bearer ${key}` } })).json();
    const event = usage.data.find((u: any) => u.session === session.id);
    expect(event?.status).toBe("voided");
  });

  it("a real session's hub page: registered shots on the chart, the others beside it with the reason", async () => {
    const browser = await launchChromium();
    try {
      for (const name of ["chonyy_outdoor_45deg_2x_3shots", "chonyy_outdoor_5shots", "brettfazio_gym_formshooting_2shots", "ashwin_driveway_front_portrait"]) {
        const { session } = sessions.get(name)!;
        expect(session.status).toBe("processed");
        const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
        const link: any = await (await sendToStack(() => fetch(`${stack.baseUrl}/v1/sessions/${session.id}/share_links`, { method: "POST", headers, body: "{}" }))).json();
        const page = await browser.newPage();
        expect((await page.goto(link.url, { waitUntil: "domcontentloaded" }))?.status()).toBe(200);
        await page.waitForSelector("#game-video, #failure", { timeout: 60_000 });
        const shots: any[] = session.shots.data;
        const onChart = await page.$$eval("svg.court .shot", (els) => els.map((e) => e.getAttribute("data-shot")));
        const beside = await page.$$eval("#unplaced-shots li.shot", (els) => els.map((e) => e.getAttribute("data-shot")));
        const placed = shots.filter((s) => s.location.shot_world_normed !== null).map((s) => s.id);
        expect(onChart.sort()).toEqual([...placed].sort());
        expect(beside.sort()).toEqual(shots.filter((s) => s.location.shot_world_normed === null).map((s) => s.id).sort());
        const unplacedText = (await page.textContent("#unplaced-shots")) ?? "";
        // Beside the chart, the reason: no court at all, or a court found at other moments of the video.
        if (beside.length > 0) expect(unplacedText).toContain(onChart.length > 0 ? "The court was found at other moments of the video, but not around these shots" : "painted lines were not found");
        else expect(unplacedText).toContain("Every shot has a position on the court");
        // The header's score adds up to the session's points, those credited to nobody included.
        const scoreParts = await page.$$eval(".score span", (els) => els.map((e) => Number(/(\d+)$/.exec(e.textContent?.trim() ?? "")?.[1] ?? NaN)));
        expect(scoreParts.reduce((a, b) => a + b, 0), `${name}: ${await page.textContent(".score").catch(() => "no score")}`).toBe(session.totals.points);
        // Which court the chart is drawn as, and how it was found (issue 25, point 5).
        const courtText = (await page.textContent("#court-type")) ?? "";
        if (name !== "ashwin_driveway_front_portrait") {
          expect(onChart.length).toBeGreaterThan(0);
          expect(courtText).toBe(`Court: ${COURT_LABELS[name]} (registered from the court's painted lines)`);
        }
        if (name === "chonyy_outdoor_45deg_2x_3shots") {
          // The sides the page names are the result's: one side is "One team", never an invented
          // opponent (issue 25, point 4). One shooter and a fixture on the wall, which is scenery
          // (judged at its spot, docs/analysis.md, the one-person table): one side, "One team".
          expect(session.players.data).toHaveLength(1);
          const captions = await page.$$eval("table.box-score caption", (els) => els.map((e) => e.textContent));
          expect(captions).toEqual(["One team", "Game totals"]);
          expect((await page.textContent(".score"))?.trim()).toMatch(/^One team \d+$/);
        } else if (name === "ashwin_driveway_front_portrait") {
          expect(onChart).toEqual([]);
          expect(courtText).toBe("Court not registered — shots are listed beside the chart");
        }
        await page.screenshot({ path: artifact(`hub-real-${name}.png`), fullPage: true });
        await page.close();
      }
    } finally {
      await browser.close();
    }
  });
});
