// The session hub: share links (POST /v1/sessions/{id}/share_links, signing, expiry, rotation) and
// the server-rendered page in each state, through the Worker's own fetch with real local D1 and R2.
// The same page in a real browser (playback, 375 px, keyboard) is test/e2e/browser.test.ts.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as schema from "../../drizzle/schema";
import type { Env } from "../../worker/env";
import { newId } from "../../worker/ids";
import { createShareLink, verifyShareLink } from "../../worker/services/share-links";
import { BASE, call, createOrg, expectError, type TestOrg } from "./helpers";
import { db, nowSeconds } from "./session-fixtures";

const hubEnv = env as unknown as Env;

async function shareLink(org: TestOrg, sessionId: string, body?: unknown) {
  return call(`/v1/sessions/${sessionId}/share_links`, { method: "POST", key: org.key, ...(body !== undefined ? { json: body } : {}) });
}

async function mint(org: TestOrg, sessionId: string): Promise<string> {
  const res = await shareLink(org, sessionId);
  expect(res.status).toBe(200);
  return ((await res.json()) as any).url;
}

/** GET a hub URL the way a browser does (path and query of the minted link). */
async function open(url: string, accept = "text/html") {
  const u = new URL(url);
  return call(`${u.pathname}${u.search}`, { headers: { Accept: accept } });
}

const stats = (p: Partial<Record<string, number>>) => ({ points: 0, fg_2pt_att: 0, fg_2pt_make: 0, fg_3pt_att: 0, fg_3pt_make: 0, ft_att: 0, ft_make: 0, assist: 0, rebound: 0, ...p });

async function insertSession(org: TestOrg, status: "queued" | "processing" | "processed" | "failed", extra: Partial<typeof schema.sessions.$inferInsert> = {}) {
  const id = newId("sess");
  const now = nowSeconds();
  await db.insert(schema.sessions).values({
    id,
    orgId: org.orgId,
    groupId: org.groupId,
    status,
    sourceType: "url",
    sourceUrl: "https://public.example.test/game.mp4",
    metadata: { title: "Eagles vs Hawks" },
    options: {},
    created: now,
    updated: now,
    ...extra,
  });
  return id;
}

/**
 * A processed game: 2 players on team 0 (one named by the roster), 1 on team 1; six shots — a made
 * 3, a missed 2, a made free throw, a made 2 credited to nobody, and two without a court position.
 */
async function seedGame(org: TestOrg) {
  const sessionId = await insertSession(org, "processed", {
    durationSeconds: 95,
    rosters: [{ team: 0, name: "Eagles", players: [{ jersey: "23", name: "Maya Lopez" }] }],
    video: { "720p": "hubtest/720p.mp4", "360p": "hubtest/360p.mp4", preview_url: "hubtest/preview.jpg", width: 1280, height: 720, fps: 30 },
    totals: stats({ points: 8, fg_3pt_att: 1, fg_3pt_make: 1, fg_2pt_att: 4, fg_2pt_make: 2, ft_att: 1, ft_make: 1 }),
  });
  const [maya, seven, hawk] = [newId("plr"), newId("plr"), newId("plr")];
  await db.insert(schema.players).values([
    { id: maya, sessionId, orgId: org.orgId, position: 0, name: "Maya Lopez", jersey: "23", teamId: 0, metadata: {}, stats: stats({ points: 4, fg_3pt_att: 1, fg_3pt_make: 1, ft_att: 1, ft_make: 1 }) },
    { id: seven, sessionId, orgId: org.orgId, position: 1, name: null, jersey: "7", teamId: 0, metadata: {}, stats: stats({ fg_2pt_att: 1 }) },
    { id: hawk, sessionId, orgId: org.orgId, position: 2, name: null, jersey: "11", teamId: 1, metadata: {}, stats: stats({ points: 2, fg_2pt_att: 2, fg_2pt_make: 1 }) },
  ]);
  const shots = [
    { made: true, points: 3, three: true, ft: false, world: [0.2, 0.45], scorer: maya, t: 12 },
    { made: false, points: 0, three: false, ft: false, world: [0.55, 0.2], scorer: seven, t: 25 },
    { made: true, points: 1, three: false, ft: true, world: [0.5, 0.414], scorer: maya, t: 40 },
    { made: true, points: 2, three: false, ft: false, world: [0.4, 0.3], scorer: null, t: 55 },
    { made: true, points: 2, three: false, ft: false, world: null, scorer: hawk, t: 70 },
    { made: false, points: 0, three: false, ft: false, world: null, scorer: hawk, t: 85 },
  ];
  const shotIds = shots.map(() => newId("shot"));
  const highlightIds = shots.map(() => newId("hl"));
  for (const [i, s] of shots.entries()) {
    await db.insert(schema.shots).values({
      id: shotIds[i], sessionId, orgId: org.orgId, position: i, shotIndex: i, startSeconds: s.t, endSeconds: s.t + 2, made: s.made, points: s.points,
      type: "fieldgoal", isThreePoint: s.ft ? null : s.three, isFreeThrow: s.ft, isFouled: false,
      location: { shot_image_normed: [0.5, 0.5], shot_world_normed: s.world, hoop_image_normed: [0.5, 0.2] }, excitementScore: 0.5,
      scorerId: s.scorer, assisterId: null, rebounderId: null, highlightId: i === 1 ? null : highlightIds[i],
    });
    // The missed 2 has no clip: it must still be listed and charted.
    if (i !== 1) {
      await db.insert(schema.highlights).values({
        id: highlightIds[i], sessionId, orgId: org.orgId, position: i, shotId: shotIds[i], shotIndex: i, lengthSeconds: 6, isLowlight: !s.made,
        isManual: false, playerId: s.scorer, video: { default: `hubtest/hl${i}-v.mp4`, horizontal: `hubtest/hl${i}-h.mp4` }, preview: { horizontal: `hubtest/hl${i}.jpg` },
        created: nowSeconds(),
      });
    }
  }
  await env.MEDIA.put("hubtest/720p.mp4", new Uint8Array(4096).fill(7), { httpMetadata: { contentType: "video/mp4" } });
  return { sessionId, shotIds, players: { maya, seven, hawk } };
}

describe("POST /v1/sessions/{id}/share_links", () => {
  it("mints a signed link that expires in 7 days by default, rounded up to the hour", async () => {
    const org = await createOrg();
    const id = await insertSession(org, "queued");
    const before = nowSeconds();
    const res = await shareLink(org, id);
    expect(res.status).toBe(200);
    const link: any = await res.json();
    expect(link).toMatchObject({ object: "share_link", session: id });
    expect(link.expires % 3600).toBe(0);
    expect(link.expires).toBeGreaterThanOrEqual(before + 7 * 86400);
    expect(link.expires).toBeLessThan(before + 7 * 86400 + 3600 + 5);
    // HUB_BASE_URL (https://hub.test in this project) is the origin; the API key is not in it.
    const url = new URL(link.url);
    expect(`${url.origin}${url.pathname}`).toBe(`https://hub.test/hub/sessions/${id}`);
    expect(Number(url.searchParams.get("exp"))).toBe(link.expires);
    expect(link.url).not.toContain(org.key);
  });

  it("takes expires_in_seconds within 5 minutes and 30 days, and nothing else", async () => {
    const org = await createOrg();
    const id = await insertSession(org, "queued");
    const short: any = await (await shareLink(org, id, { expires_in_seconds: 300 })).json();
    expect(short.expires - nowSeconds()).toBeLessThanOrEqual(3600 + 300);
    await expectError(await shareLink(org, id, { expires_in_seconds: 299 }), 400, "parameter_invalid", "expires_in_seconds");
    await expectError(await shareLink(org, id, { expires_in_seconds: 30 * 86400 + 1 }), 400, "parameter_invalid", "expires_in_seconds");
    await expectError(await shareLink(org, id, { expires_in_seconds: "3600" }), 400, "parameter_invalid", "expires_in_seconds");
    await expectError(await shareLink(org, id, { expires_in: 3600 }), 400, "parameter_invalid");
  });

  it("links only the caller's own sessions", async () => {
    const [org, other] = [await createOrg(), await createOrg()];
    const id = await insertSession(org, "queued");
    await expectError(await shareLink(other, id), 404, "resource_missing", "id");
    await expectError(await shareLink(org, "sess_doesnotexist0000000000"), 404, "resource_missing", "id");
    await expectError(await call(`/v1/sessions/${id}/share_links`, { method: "POST" }), 401, "missing_api_key");
  });
});

describe("share link checks", () => {
  it("refuses a tampered link: browsers get a page, other clients the error envelope", async () => {
    const org = await createOrg();
    const [a, b] = [await insertSession(org, "queued"), await insertSession(org, "queued")];
    const url = new URL(await mint(org, a));
    const sig = url.searchParams.get("sig")!;

    const forged = new URL(url);
    forged.searchParams.set("sig", `${sig[0] === "A" ? "B" : "A"}${sig.slice(1)}`);
    const page = await open(forged.href);
    expect(page.status).toBe(403);
    expect(page.headers.get("Content-Type")).toMatch(/text\/html/);
    expect(await page.text()).toContain("This link is not valid");
    await expectError(await open(forged.href, "application/json"), 403, "signature_invalid");

    // The last base64url character has 2 unused bits: a different spelling of the same bytes is refused too.
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const respelled = new URL(url);
    respelled.searchParams.set("sig", sig.slice(0, -1) + alphabet[alphabet.indexOf(sig.at(-1)!) + 1]);
    expect((await open(respelled.href)).status).toBe(403);

    // A later expiry, another session's id, or a missing signature: all refused.
    const extended = new URL(url);
    extended.searchParams.set("exp", String(Number(url.searchParams.get("exp")) + 3600));
    expect((await open(extended.href)).status).toBe(403);
    expect((await open(url.href.replace(a, b))).status).toBe(403);
    expect((await open(`${url.origin}${url.pathname}`)).status).toBe(403);
    expect((await open(url.href)).status).toBe(200);
  });

  it("refuses an expired link, saying so", async () => {
    const org = await createOrg();
    const id = await insertSession(org, "queued");
    const old = await createShareLink(hubEnv, BASE, id, { expiresInSeconds: 300, now: nowSeconds() - 7200 });
    expect(old.expires).toBeLessThanOrEqual(nowSeconds());
    const page = await open(old.url);
    expect(page.status).toBe(403);
    expect(await page.text()).toContain("This link has expired");
    expect(await verifyShareLink(hubEnv, id, new URL(old.url).searchParams, old.expires - 1)).toEqual({ valid: true, exp: old.expires });
  });

  it("rotating the hub signing key revokes every link made with the old one", async () => {
    const org = await createOrg();
    const id = await insertSession(org, "queued");
    const current = new URL(await mint(org, id)).searchParams;
    const rotated = { ...hubEnv, HUB_SIGNING_SECRET: "a-brand-new-hub-signing-secret-0001" } as Env;
    expect(await verifyShareLink(rotated, id, current, nowSeconds())).toEqual({ valid: false, reason: "revoked" });
    const fresh = await createShareLink(rotated, BASE, id, { expiresInSeconds: 3600, now: nowSeconds() });
    expect(await verifyShareLink(rotated, id, new URL(fresh.url).searchParams, nowSeconds())).toMatchObject({ valid: true });
    // The deployment still on the old key refuses links of the new one, in words.
    expect(await verifyShareLink(hubEnv, id, new URL(fresh.url).searchParams, nowSeconds())).toEqual({ valid: false, reason: "revoked" });
    const page = await open(fresh.url);
    expect(page.status).toBe(403);
    expect(await page.text()).toContain("This link has been revoked");
    // The dedicated key is not the media key: rotating media URLs alone is a separate decision.
    expect(rotated.MEDIA_SIGNING_SECRET).toBe(hubEnv.MEDIA_SIGNING_SECRET);
  });

  it("a valid link to a session that is gone says so", async () => {
    const link = await createShareLink(hubEnv, BASE, "sess_neverexisted000000000000", { expiresInSeconds: 3600, now: nowSeconds() });
    const page = await open(link.url);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain("This game is not available");
  });
});

describe("the hub page", () => {
  it("while queued: status, no progress yet, and a page that refreshes itself", async () => {
    const org = await createOrg();
    const id = await insertSession(org, "queued");
    const res = await open(await mint(org, id));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html.startsWith("<!DOCTYPE html><html lang=\"en\">")).toBe(true);
    expect(html).toContain("Waiting to start");
    expect(html).toMatch(/<meta http-equiv="refresh" content="10"/);
    expect(html).toMatch(/<progress id="progress-bar" max="100" value="0"/);
    expect(html).toContain("Eagles vs Hawks");
  });

  it("while processing: the runner's stage in words and its percentage", async () => {
    const org = await createOrg();
    const id = await insertSession(org, "processing");
    await db.insert(schema.jobs).values({ id: newId("job"), sessionId: id, orgId: org.orgId, status: "leased", progressStage: "analyze", progressPercent: 45 });
    const html = await (await open(await mint(org, id))).text();
    expect(html).toContain("Finding shots and players");
    expect(html).toMatch(/<progress id="progress-bar" max="100" value="45"/);
    expect(html).toContain("45% done");
    expect(html).toMatch(/http-equiv="refresh"/);
  });

  it("when failed: what happened in words, what to do next, nothing charged; no refresh", async () => {
    const org = await createOrg();
    const id = await insertSession(org, "failed", { errorCode: "no_hoops", errorMessage: "No hoop was visible in at least 20% of the analysed frames." });
    const html = await (await open(await mint(org, id))).text();
    expect(html).toContain("We could not find a hoop in the video.");
    expect(html).toContain("What to do next");
    expect(html).toContain("at least one hoop stays in view");
    expect(html).toContain("Nothing was charged");
    expect(html).toContain("No hoop was visible in at least 20% of the analysed frames.");
    expect(html).not.toMatch(/http-equiv="refresh"/);
    // An unknown stored code still gets words.
    const odd = await insertSession(org, "failed", { errorCode: "gremlins", errorMessage: "?" });
    expect(await (await open(await mint(org, odd))).text()).toContain("Something went wrong on our side");
  });

  it("when processed: one marker per located shot, unlocated shots listed, box scores with roster names and totals", async () => {
    const org = await createOrg();
    const game = await seedGame(org);
    const res = await open(await mint(org, game.sessionId));
    expect(res.status).toBe(200);
    const html = await res.text();

    // Shot chart: 4 shots have court positions (3 made, 1 missed); markers carry their shot id.
    const chart = html.slice(html.indexOf('<svg class="court"'), html.indexOf("</svg>", html.indexOf('<svg class="court"')));
    const markers = [...chart.matchAll(/class="shot (made|missed) (k2|k3|kft|kfg)"[^>]*data-shot="(shot_[^"]+)"/g)];
    expect(markers.map((m) => m[3]).sort()).toEqual(game.shotIds.slice(0, 4).sort());
    expect(markers.filter((m) => m[1] === "made")).toHaveLength(3);
    expect(markers.map((m) => m[2]).sort()).toEqual(["k2", "k2", "k3", "kft"]);
    expect(chart).toContain("4 shots placed on the half court: 3 made, 1 missed.");
    // Hover / focus text says time, kind, result, points and scorer.
    expect(chart).toContain("0:12 · 3-pointer, made · 3 points · Maya Lopez (#23)");
    expect(chart).toContain("0:55 · 2-pointer, made · 2 points · scorer not identified");
    // The shot without a clip is a focusable marker, not a link.
    expect(chart).toMatch(new RegExp(`<g class="shot missed k2"[^>]*tabindex="0"[^>]*data-shot="${game.shotIds[1]}"`));

    // The two shots without a court position are listed beside the chart, not dropped.
    const unplaced = html.slice(html.indexOf('id="unplaced-shots"'), html.indexOf('id="box"'));
    expect(unplaced).toContain("1:10 · 2-pointer, made · 2 points · #11");
    expect(unplaced).toContain("1:25 · 2-pointer, missed · 0 points · #11");
    // Why they are not on the chart, and that their 2 or 3 is an estimate (issue 25, point 5).
    expect(unplaced).toContain("painted lines were not found near these shots");
    expect(unplaced).toContain("are estimated from the shooter");
    // …and how a free throw is told there (issue 25, point 2).
    expect(unplaced).toMatch(/1 for a free throw when the shooter stood still at the\s+free-throw distance/);
    // …and how the estimate errs (measured against the 2-or-3 labels: right at the free-throw line, the corner three a metre short).
    expect(unplaced).toMatch(/The estimate can be a metre off, and has counted a corner three as a 2, so a shot\s+from just beyond the three-point line may be counted as a 2/);

    // Highlight reel: every shot listed; five with a clip link (signed media URL), one without.
    const reel = html.slice(html.indexOf('<ol class="reel">'), html.indexOf("</ol>", html.indexOf('<ol class="reel">')));
    expect([...reel.matchAll(/<li>/g)]).toHaveLength(6);
    const clips = [...reel.matchAll(/data-clip="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, "&"));
    expect(clips).toHaveLength(5);
    expect(clips[0]).toMatch(/\/media\/hubtest\/hl0-h\.mp4\?exp=\d+&sig=/);

    // Box scores: roster team name, roster player name, jersey-only players, team totals and game totals.
    expect(html).toContain("<caption>Eagles</caption>");
    expect(html).toContain("<caption>Team 1</caption>"); // a roster was sent, but not for team 1
    expect(html).toContain("Maya Lopez (#23)");
    expect(html).toMatch(/<th scope="row">Team total<\/th><td>4<\/td>/);
    expect(html).toMatch(/<th scope="row">Scorer not identified<\/th><td>2<\/td><td>1-1<\/td>/);
    expect(html).toMatch(/<th scope="row">All shots<\/th><td>8<\/td><td>2-4<\/td><td>1-1<\/td><td>1-1<\/td>/);
    expect(html).toContain("Eagles 4");
    // The header's score adds up to the game's 8 points: the 2 credited to nobody are shown beside the teams.
    expect(html).toMatch(/<p class="score" aria-label="Score"><span>Eagles 4<\/span><span>Team 1 2<\/span><span class="unattributed">Scorer not identified 2<\/span><\/p>/);
  });

  it("the chart names its court and is drawn as that type: registered from the lines, from the painted key, or not registered (issue 25, point 5)", async () => {
    const org = await createOrg();
    const court = async (courts: Array<{ type: string; found_by: string } | null | "unplaced">) => {
      const sessionId = await insertSession(org, "processed", { durationSeconds: 30, totals: stats({ fg_2pt_att: courts.length }) });
      for (const [i, c] of courts.entries()) {
        await db.insert(schema.shots).values({
          id: newId("shot"), sessionId, orgId: org.orgId, position: i, shotIndex: i, startSeconds: i * 5, endSeconds: i * 5 + 2, made: false, points: 0,
          type: "fieldgoal", isThreePoint: false, isFreeThrow: false, isFouled: false, excitementScore: 0.2, scorerId: null, assisterId: null, rebounderId: null, highlightId: null,
          location: { shot_image_normed: [0.5, 0.6], shot_world_normed: c === "unplaced" ? null : [0.5, 0.5], hoop_image_normed: [0.5, 0.2] },
          court: c === "unplaced" ? null : (c as any),
        });
      }
      const html = await (await open(await mint(org, sessionId))).text();
      const caption = html.match(/<p id="court-type" data-court="([a-z_]+)">([^<]*)<\/p>/);
      const svg = html.slice(html.indexOf('<svg class="court"'), html.indexOf("</svg>", html.indexOf('<svg class="court"')));
      const unplaced = html.slice(html.indexOf('id="unplaced-shots"'), html.indexOf('id="box"'));
      return { type: caption?.[1], words: caption?.[2], svg, unplaced };
    };

    // An NBA court registered from its lines (the majority of placed shots): named, and drawn 50 × 47 ft
    // with its 23 ft 9 in arc; the marker at the middle of the NBA half court.
    const nba = await court([{ type: "nba", found_by: "lines" }, { type: "nba", found_by: "lines" }, { type: "fiba", found_by: "lines" }, "unplaced"]);
    expect(nba.type).toBe("nba");
    expect(nba.words).toBe("Court: NBA (registered from the court&#39;s painted lines)");
    expect(nba.svg).toContain('viewBox="-0.6 -0.6 16.440 15.526"');
    expect(nba.svg).toContain("A7.239,7.239 0 0 0");
    expect(nba.svg).toContain('transform="translate(7.620 7.163)"');
    // The shot beside the chart was taken while no view held: the legend says the court was found at
    // other moments, not that its lines were never found.
    expect(nba.unplaced).toContain("The court was found at other moments of the video, but not around these shots, so where they were taken from is unknown");
    expect(nba.unplaced).not.toContain("painted lines were not found");

    // The synthetic games' painted key: FIBA, 15 × 14 m, 6.75 m arc.
    const key = await court([{ type: "fiba", found_by: "painted_key" }]);
    expect(key.words).toBe("Court: FIBA (found from the painted key)");
    expect(key.svg).toContain('viewBox="-0.6 -0.6 16.200 15.200"');
    expect(key.svg).toContain("A6.750,6.750 0 0 0");

    // Positions stored before the runner reported its court: the FIBA chart, without a claim how it was found.
    const older = await court([null]);
    expect([older.type, older.words]).toEqual(["fiba", "Court: FIBA"]);

    // No court position at all: the page says the court was not registered, not a court type.
    const none = await court(["unplaced", "unplaced"]);
    expect(none.type).toBe("none");
    expect(none.words).toBe("Court not registered — shots are listed beside the chart");
    expect(none.unplaced).toContain("The court&#39;s painted lines were not found near these shots, so where they were taken from is unknown");
  });

  it("one side seen and no roster: the box score says One team, not an opponent's shirt colour (issue 25)", async () => {
    const org = await createOrg();
    const sessionId = await insertSession(org, "processed", { durationSeconds: 20, totals: stats({ points: 2, fg_2pt_att: 2, fg_2pt_make: 1 }) });
    await db.insert(schema.players).values([
      { id: newId("plr"), sessionId, orgId: org.orgId, position: 0, name: null, jersey: null, teamId: 0, metadata: {}, stats: stats({ points: 2, fg_2pt_att: 2, fg_2pt_make: 1 }) },
    ]);
    const html = await (await open(await mint(org, sessionId))).text();
    expect(html).toContain("<caption>One team</caption>");
    expect(html).not.toContain("Light shirts");
    expect(html).not.toContain("Dark shirts");
    // The header's score names the one side alone: no "Light shirts 0 · Dark shirts 4" (issue 25, point 4).
    expect(html).toMatch(/<p class="score" aria-label="Score"><span>One team 2<\/span><\/p>/);
  });

  it("points credited to nobody are in the header's score, so it adds up to the game's total even with no player at all", async () => {
    const org = await createOrg();
    const sessionId = await insertSession(org, "processed", { durationSeconds: 20, totals: stats({ points: 2, fg_2pt_att: 1, fg_2pt_make: 1 }) });
    const html = await (await open(await mint(org, sessionId))).text();
    expect(html).toMatch(/<p class="score" aria-label="Score"><span class="unattributed">Scorer not identified 2<\/span><\/p>/);
    // Nothing scored, nobody seen: no score line at all.
    const empty = await insertSession(org, "processed", { durationSeconds: 20, totals: stats({ fg_2pt_att: 1 }) });
    expect(await (await open(await mint(org, empty))).text()).not.toContain('class="score"');
  });

  it("a solo session is one shooter: the box score and the score say Solo session, one player row (issue 25, point 4)", async () => {
    const org = await createOrg();
    const sessionId = await insertSession(org, "processed", { durationSeconds: 20, options: { session_type: "solo" }, totals: stats({ points: 4, fg_2pt_att: 3, fg_2pt_make: 2 }) });
    const solo = newId("plr");
    await db.insert(schema.players).values([
      { id: solo, sessionId, orgId: org.orgId, position: 0, name: null, jersey: null, teamId: 0, metadata: {}, stats: stats({ points: 4, fg_2pt_att: 3, fg_2pt_make: 2 }) },
    ]);
    const html = await (await open(await mint(org, sessionId))).text();
    expect(html).toContain("<caption>Solo session</caption>");
    expect(html).toMatch(/<p class="score" aria-label="Score"><span>Solo session 4<\/span><\/p>/);
    expect([...html.matchAll(/<tr data-player="(plr_[^"]+)">/g)].map((m) => m[1])).toEqual([solo]);
    expect(html).not.toContain("One team");
  });

  it("plays the game video from a signed rendition URL with Range support, 720p first", async () => {
    const org = await createOrg();
    const game = await seedGame(org);
    const html = await (await open(await mint(org, game.sessionId))).text();
    const src = /<video id="game-video"[^>]* src="([^"]+)"/.exec(html)![1].replace(/&amp;/g, "&");
    expect(src).toMatch(/\/media\/hubtest\/720p\.mp4\?exp=/);
    expect(html).toMatch(/<option value="[^"]+360p\.mp4[^"]*">360p<\/option>/);
    const u = new URL(src);
    const part = await call(`${u.pathname}${u.search}`, { headers: { Range: "bytes=100-199" } });
    expect(part.status).toBe(206);
    expect((await part.arrayBuffer()).byteLength).toBe(100);
  });

  it("media URLs on the page live as long as the link, and at least six hours", async () => {
    const org = await createOrg();
    const game = await seedGame(org);
    const onTheHour = (t: number) => Math.ceil(t / 3600) * 3600;
    const before = nowSeconds();
    const long: any = await (await shareLink(org, game.sessionId, { expires_in_seconds: 20 * 86400 })).json();
    const html = await (await open(long.url)).text();
    const exp = Number(/720p\.mp4\?exp=(\d+)/.exec(html)![1]);
    // Capped at 7 days (like the API's media URLs), on the hour.
    expect(exp).toBeGreaterThanOrEqual(onTheHour(before + 7 * 86400));
    expect(exp).toBeLessThanOrEqual(onTheHour(nowSeconds() + 7 * 86400));
    const short: any = await (await shareLink(org, game.sessionId, { expires_in_seconds: 300 })).json();
    const shortExp = Number(/720p\.mp4\?exp=(\d+)/.exec(await (await open(short.url)).text())![1]);
    expect(shortExp).toBeGreaterThanOrEqual(nowSeconds() + 6 * 3600);
    expect(shortExp).toBeLessThan(nowSeconds() + 7 * 3600 + 5);
  });

  it("loads nothing from elsewhere: a strict CSP, local assets, no referrer, not indexed", async () => {
    const org = await createOrg();
    const game = await seedGame(org);
    const res = await open(await mint(org, game.sessionId));
    const csp = res.headers.get("Content-Security-Policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(res.headers.get("Referrer-Policy")).toBe("no-referrer");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("X-Robots-Tag")).toMatch(/noindex/);
    const html = await res.text();
    const refs = [...html.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
    for (const ref of refs) expect(ref === "" || ref.startsWith("/") || ref.startsWith("#") || ref.startsWith(BASE) || ref.startsWith("http://127.0.0.1"), ref).toBe(true);
    const css = /<link rel="stylesheet" href="([^"]+)"/.exec(html)![1];
    const js = /<script src="([^"]+)"/.exec(html)![1];
    for (const [path, type] of [[css, "text/css"], [js, "text/javascript"]]) {
      const asset = await call(path);
      expect(asset.status).toBe(200);
      expect(asset.headers.get("Content-Type")).toContain(type);
      expect(asset.headers.get("Cache-Control")).toContain("immutable");
      expect((await asset.text()).length).toBeGreaterThan(500);
    }
  });
});
