import { FAILURE_MESSAGES } from "../../contract/failure-messages";
import { env, exports } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../drizzle/schema";
import { newId } from "../../worker/ids";
import { buildServices } from "../../worker/middleware/services";
import { claimNextJob, completeJob, failJob, LEASE_SECONDS, MAX_ATTEMPTS, sweepJobs } from "../../worker/services/jobs";
import { lifecycleDeps } from "../../worker/services/lifecycle";
import { JobResult } from "../../contract/runner-api";
import { PREPARE_ATTEMPTS } from "../../worker/queues/jobs";
import { admin, call, createOrg, expectError, type TestOrg } from "./helpers";
import { prepare, runQueue, seedUploadSession } from "./job-fixtures";
import { VIDEOS, videoUrl } from "./session-fixtures";

const db = drizzle(env.DB, { schema });
let runnerToken: string;
let runnerTokenId: string;

beforeAll(async () => {
  const minted = await admin("POST", "/admin/v1/runner_tokens", { name: "test runner" });
  runnerToken = minted.token;
  runnerTokenId = minted.id;
});

const runner = (path: string, json?: unknown, token = runnerToken) =>
  call(`/runner/v1${path}`, { method: "POST", json: json ?? {}, headers: { Authorization: `Bearer ${token}` } });

async function claim(): Promise<any> {
  const res = await runner("/jobs/claim", { wait_seconds: 0 });
  expect(res.status).toBe(200);
  return ((await res.json()) as any).job;
}

const row = async (sessionId: string) => (await db.select().from(schema.sessions).where(eqId(schema.sessions.id, sessionId)).get())!;
const usage = async (sessionId: string) => (await db.select().from(schema.usageEvents).where(eqId(schema.usageEvents.sessionId, sessionId)).get())!;
const jobRow = async (jobId: string) => (await db.select().from(schema.jobs).where(eqId(schema.jobs.id, jobId)).get())!;
const eventsFor = async (sessionId: string) =>
  (await db.select().from(schema.events).all()).filter((e) => (e.data as any).object?.id === sessionId);
import { eq as eqId, sql } from "drizzle-orm";

function resultFor(duration = 61.2) {
  return {
    run_version: 3,
    video: { duration_seconds: duration, width: 1280, height: 720, fps: 30, preview: "preview.jpg", "1080p": null, "720p": "renditions/720p.mp4", "360p": "renditions/360p.mp4" },
    artifacts: { actions: "artifacts/actions.jsonl", balls: null, hoops: null, clusters: null },
    players: [
      { key: "p1", jersey: "23", team_id: 0 },
      { key: "p2", jersey: "7", team_id: 0 },
      { key: "p3", jersey: "10", team_id: 1 },
    ],
    shots: [
      { key: "s1", index: 0, start_seconds: 3, end_seconds: 5, made: true, points: 3, is_three_point: true, players: { scorer: "p1", assister: "p2", rebounder: null }, highlight: "h1" },
      { key: "s2", index: 1, start_seconds: 9, end_seconds: 11, made: false, points: 0, is_three_point: false, players: { scorer: "p2", assister: null, rebounder: "p3" }, highlight: null },
      { key: "s3", index: 2, start_seconds: 20, end_seconds: 21, made: true, points: 1, is_three_point: false, is_free_throw: true, type: "freethrow", players: { scorer: "p3", assister: null, rebounder: null }, highlight: null },
    ],
    highlights: [
      { key: "h1", shot: "s1", shot_index: 0, length_seconds: 8, player: "p1", video: { default: "hl/h1/default.mp4", horizontal: "hl/h1/horizontal.mp4", "1080p": null, "720p": "hl/h1/720p.mp4", "480p": null, "360p": null, "240p": null, "144p": null }, preview: { default: "hl/h1/default.jpg", horizontal: null } },
    ],
  };
}

/** Stands in for the runner's uploads: every file a result names, stored where outputs land. */
async function storeOutputs(sessionId: string, result: ReturnType<typeof resultFor>) {
  const parsed = JobResult.parse(result);
  const names = [
    parsed.video.preview, parsed.video["1080p"], parsed.video["720p"], parsed.video["360p"], ...Object.values(parsed.artifacts),
    ...parsed.highlights.flatMap((h) => [...Object.values(h.video), ...Object.values(h.preview)]),
  ].filter((n): n is string => !!n);
  for (const name of names) await env.MEDIA.put(`sessions/${sessionId}/outputs/${name}`, "x");
}

describe("runner authentication", () => {
  it("refuses missing, malformed and revoked runner tokens", async () => {
    await expectError(await call("/runner/v1/jobs/claim", { method: "POST", json: {} }), 401, "invalid_runner_token");
    const org = await createOrg();
    await expectError(await runner("/jobs/claim", {}, org.key), 401, "invalid_runner_token");
    const minted = await admin("POST", "/admin/v1/runner_tokens", {});
    await admin("DELETE", `/admin/v1/runner_tokens/${minted.id}`);
    await expectError(await runner("/jobs/claim", {}, minted.token), 401, "invalid_runner_token");
  });
});

describe("job lifecycle", () => {
  it("prepare → claim → heartbeat → complete: processed, settled, event stored", async () => {
    const org = await createOrg({ creditsCents: 5000 });
    const seed = await seedUploadSession(org);
    expect(await claim()).toBeNull(); // pending jobs are not claimable before preparation
    const prepared = await prepare(seed);
    expect(prepared.explicitAcks).toEqual(["m0"]);
    expect((await jobRow(seed.jobId)).status).toBe("ready");

    const job = await claim();
    expect(job).toMatchObject({ id: seed.jobId, session: seed.sessionId, attempt: 1, source: { type: "upload" }, options: { session_type: "5v5" } });
    expect(job.lease.expires_at - Math.floor(Date.now() / 1000)).toBeGreaterThan(LEASE_SECONDS - 5);
    expect((await row(seed.sessionId)).status).toBe("processing");

    // The download URL is a signed Worker URL that serves the upload with Range support.
    const download = await (exports as any).default.fetch(new Request(job.source.download_url, { headers: { Range: "bytes=0-2" } }));
    expect(download.status).toBe(206);
    expect(await download.text()).toBe("not");

    const hb = await runner(`/jobs/${job.id}/heartbeat`, { lease_id: job.lease.id, stage: "analysis", percent: 40 });
    expect(hb.status).toBe(200);
    expect(await hb.json()).toMatchObject({ cancel: false });
    expect((await jobRow(seed.jobId)).progressPercent).toBe(40);

    const out = await runner(`/jobs/${job.id}/outputs`, { lease_id: job.lease.id, name: "renditions/720p.mp4", size: 10, content_type: "video/mp4" });
    expect(out.status).toBe(200);
    const target: any = await out.json();
    expect(target.upload_url).toMatch(/\/uploads\/v1\/out_[0-9a-f]+\?sig=/);
    // Asking again resumes the same target.
    const again: any = await (await runner(`/jobs/${job.id}/outputs`, { lease_id: job.lease.id, name: "renditions/720p.mp4", size: 10, content_type: "video/mp4" })).json();
    expect(again.upload_url).toBe(target.upload_url);

    // Outputs the result names must exist before the job can complete (and the session be charged).
    const missing = await runner(`/jobs/${job.id}/complete`, { lease_id: job.lease.id, result: resultFor(61.2) });
    expect((await expectError(missing, 400, "parameter_invalid", "video.preview")).message).toMatch(/'preview.jpg' was never uploaded/);
    expect((await row(seed.sessionId)).status).toBe("processing");
    expect((await usage(seed.sessionId)).status).toBe("held");
    await storeOutputs(seed.sessionId, resultFor(61.2));

    const done = await runner(`/jobs/${job.id}/complete`, { lease_id: job.lease.id, result: resultFor(61.2) });
    expect(done.status).toBe(200);

    const session = await row(seed.sessionId);
    expect(session.status).toBe("processed");
    expect(session.durationSeconds).toBe(62);
    expect(session.costCents).toBe(Math.ceil((62 * 500) / 3600)); // 9 cents
    expect((await usage(seed.sessionId)).status).toBe("settled");
    const balance: any = await (await call("/v1/balance", { key: org.key })).json();
    expect(balance).toMatchObject({ held_cents: 0, credit_cents: 5000 - 9 });

    const stored = await db.select().from(schema.shots).where(eqId(schema.shots.sessionId, seed.sessionId)).all();
    const storedPlayers = await db.select().from(schema.players).where(eqId(schema.players.sessionId, seed.sessionId)).all();
    const storedHighlights = await db.select().from(schema.highlights).where(eqId(schema.highlights.sessionId, seed.sessionId)).all();
    expect(stored.map((s) => s.id).every((id) => id.startsWith("shot_"))).toBe(true);
    const byJersey = Object.fromEntries(storedPlayers.map((p) => [p.jersey, p]));
    // Cross-links resolve inside the session, and stats agree with the shots naming each player.
    expect(stored[0].highlightId).toBe(storedHighlights[0].id);
    expect(storedHighlights[0].shotId).toBe(stored[0].id);
    expect(stored[0].scorerId).toBe(byJersey["23"].id);
    expect(storedHighlights[0].playerId).toBe(byJersey["23"].id);
    expect(byJersey["23"].stats).toMatchObject({ points: 3, fg_3pt_att: 1, fg_3pt_make: 1 });
    expect(byJersey["7"].stats).toMatchObject({ points: 0, assist: 1, fg_2pt_att: 1, fg_2pt_make: 0 });
    expect(byJersey["10"].stats).toMatchObject({ points: 1, ft_att: 1, ft_make: 1, rebound: 1 });
    expect(session.totals).toMatchObject({ points: 4, fg_2pt_att: 1, fg_3pt_att: 1, fg_3pt_make: 1, ft_att: 1, ft_make: 1, assist: 1, rebound: 1 });

    const evts = await eventsFor(seed.sessionId);
    expect(evts.map((e) => e.type)).toEqual(["session.processed"]);
    expect((evts[0].data as any).object).toMatchObject({ id: seed.sessionId, status: "processed", cost_cents: 9, metadata: { game: "final" } });

    // Reporting twice changes nothing and emits nothing new.
    expect((await runner(`/jobs/${job.id}/complete`, { lease_id: job.lease.id, result: resultFor(99) })).status).toBe(200);
    expect((await row(seed.sessionId)).durationSeconds).toBe(62);
    expect((await eventsFor(seed.sessionId)).length).toBe(1);
    // A failure report after completion is refused.
    await expectError(await runner(`/jobs/${job.id}/fail`, { lease_id: job.lease.id, code: "unknown", message: "late" }), 409, "lease_lost");
    expect((await row(seed.sessionId)).status).toBe("processed");
  });

  it("refuses results whose cross-links point outside the session", async () => {
    const org = await createOrg({ creditsCents: 5000 });
    const seed = await seedUploadSession(org);
    await prepare(seed);
    const job = await claim();
    const bad = resultFor();
    bad.shots[0].players.scorer = "ghost";
    await expectError(await runner(`/jobs/${job.id}/complete`, { lease_id: job.lease.id, result: bad }), 400, "parameter_invalid", "shots.0.players.scorer");
    expect((await row(seed.sessionId)).status).toBe("processing");
  });

  it("two runners competing for one job: exactly one wins", async () => {
    const org = await createOrg({ creditsCents: 5000 });
    const seed = await seedUploadSession(org);
    await prepare(seed);
    const answers = await Promise.all(Array.from({ length: 6 }, () => runner("/jobs/claim", { wait_seconds: 0 }).then((r) => r.json() as any)));
    const winners = answers.filter((a) => a.job?.id === seed.jobId);
    expect(winners.length).toBe(1);
  });

  it("an expired lease is re-claimed; the old lease can no longer report", async () => {
    const org = await createOrg({ creditsCents: 5000 });
    const seed = await seedUploadSession(org);
    await prepare(seed);
    const first = await claim();
    const reserve = (j: any) => runner(`/jobs/${j.id}/outputs`, { lease_id: j.lease.id, name: "renditions/720p.mp4", size: 10, content_type: "video/mp4" }).then((r) => r.json() as any);
    const firstTarget = await reserve(first);
    await db.update(schema.jobs).set({ leaseExpiresAt: Math.floor(Date.now() / 1000) - 1 }).where(eqId(schema.jobs.id, seed.jobId));
    const second = await claim();
    expect(second.id).toBe(seed.jobId);
    expect(second.attempt).toBe(2);
    expect(second.lease.id).not.toBe(first.lease.id);
    // The new attempt uploads its outputs afresh, never onto the first attempt's partial bytes.
    const secondTarget = await reserve(second);
    expect(secondTarget.upload_url).not.toBe(firstTarget.upload_url);
    expect(secondTarget.offset).toBe(0);
    await expectError(await runner(`/jobs/${first.id}/heartbeat`, { lease_id: first.lease.id }), 409, "lease_lost");
    await expectError(await runner(`/jobs/${first.id}/complete`, { lease_id: first.lease.id, result: resultFor() }), 409, "lease_lost");
    expect((await row(seed.sessionId)).status).toBe("processing");
    await storeOutputs(seed.sessionId, resultFor(30));
    expect((await runner(`/jobs/${second.id}/complete`, { lease_id: second.lease.id, result: resultFor(30) })).status).toBe(200);
    expect((await row(seed.sessionId)).status).toBe("processed");
    expect((await eventsFor(seed.sessionId)).length).toBe(1);
  });

  it("video_too_large: failed, hold voided, uploaded bytes deleted, session.failed emitted", async () => {
    const org = await createOrg({ creditsCents: 5000 });
    const seed = await seedUploadSession(org);
    await prepare(seed);
    const job = await claim();
    const res = await runner(`/jobs/${job.id}/fail`, { lease_id: job.lease.id, code: "video_too_large", message: "3840x2160 is above 1920x1080" });
    expect(res.status).toBe(200);
    const session = await row(seed.sessionId);
    expect(session).toMatchObject({ status: "failed", errorCode: "video_too_large", costCents: null });
    expect((await usage(seed.sessionId)).status).toBe("voided");
    expect(await env.MEDIA.head(seed.r2Key)).toBeNull();
    const evts = await eventsFor(seed.sessionId);
    expect(evts.map((e) => e.type)).toEqual(["session.failed"]);
    expect((evts[0].data as any).object.error).toEqual({ code: "video_too_large", message: "3840x2160 is above 1920x1080" });
    const balance: any = await (await call("/v1/balance", { key: org.key })).json();
    expect(balance).toMatchObject({ credit_cents: 5000, held_cents: 0, available_cents: 5000 });
    // A repeated report is answered the same and changes nothing.
    expect((await runner(`/jobs/${job.id}/fail`, { lease_id: job.lease.id, code: "video_too_large", message: "again" })).status).toBe(200);
    expect((await eventsFor(seed.sessionId)).length).toBe(1);
  });

  it("a failure report that shows runner internals reaches the customer as the code's standard sentence", async () => {
    const org = await createOrg({ creditsCents: 5000 });
    const leaky = [
      "The file is not a readable video: ffprobe exited with code 1: /var/tmp/hoops-runner/job_x-lease_y/source.video: Invalid data found when processing input",
      "Error: boom\n    at runJob (/srv/hoops/gpu-runner/job.ts:150:11)\n    at async Runner.handle (/srv/hoops/gpu-runner/loop.ts:170:7)",
      "download failed: connect ECONNREFUSED 10.20.0.4:443",
      "could not reach media-cache.internal",
    ];
    for (const message of leaky) {
      const seed = await seedUploadSession(org);
      await prepare(seed);
      const job = await claim();
      expect((await runner(`/jobs/${job.id}/fail`, { lease_id: job.lease.id, code: "source_invalid", message })).status).toBe(200);
      const session: any = await (await call(`/v1/sessions/${seed.sessionId}`, { key: org.key })).json();
      expect(session.error, message).toEqual({ code: "source_invalid", message: FAILURE_MESSAGES.source_invalid });
    }
    // A sentence written for the customer is kept as it is, links included.
    const seed = await seedUploadSession(org);
    await prepare(seed);
    const job = await claim();
    const clean = "The link answered HTTP 404 (not found) when https://videos.example.com/games/final.mp4 was downloaded.";
    await runner(`/jobs/${job.id}/fail`, { lease_id: job.lease.id, code: "source_unavailable", message: clean });
    expect((await row(seed.sessionId)).errorMessage).toBe(clean);
  });

  it("a heartbeat answer carries a cancel request", async () => {
    const org = await createOrg({ creditsCents: 5000 });
    const seed = await seedUploadSession(org);
    await prepare(seed);
    const job = await claim();
    await db.update(schema.jobs).set({ cancelRequested: true }).where(eqId(schema.jobs.id, seed.jobId));
    const hb: any = await (await runner(`/jobs/${job.id}/heartbeat`, { lease_id: job.lease.id })).json();
    expect(hb.cancel).toBe(true);
  });
});

describe("the measured step (issue 22, point 1): the hold becomes the measured cost before any work, or the session fails", () => {
  const balanceOf = async (org: TestOrg): Promise<any> => (await call("/v1/balance", { key: org.key })).json();

  it("covered: the hold is raised to the measured cost, the runner goes on, and the settle charges exactly the measured cost", async () => {
    const org = await createOrg({ creditsCents: 50 });
    // Submitted with `duration_seconds: 1`: a 1-cent hold.
    const seed = await seedUploadSession(org, { heldCents: 1 });
    await prepare(seed);
    const job = await claim();
    const res = await runner(`/jobs/${job.id}/measured`, { lease_id: job.lease.id, duration_seconds: 61.2 });
    expect(res.status).toBe(200);
    // 62 whole seconds at 500 cents an hour: 9 cents.
    expect(await res.json()).toEqual({ proceed: true, needed_cents: 9, held_cents: 9 });
    expect(await balanceOf(org)).toMatchObject({ credit_cents: 50, held_cents: 9, available_cents: 41 });
    expect(await row(seed.sessionId)).toMatchObject({ status: "processing", durationSeconds: 62 });
    // Asking again (a retried request) changes nothing.
    expect(await (await runner(`/jobs/${job.id}/measured`, { lease_id: job.lease.id, duration_seconds: 61.2 })).json()).toEqual({ proceed: true, needed_cents: 9, held_cents: 9 });
    expect((await usage(seed.sessionId)).heldCents).toBe(9);

    await storeOutputs(seed.sessionId, resultFor(61.2));
    expect((await runner(`/jobs/${job.id}/complete`, { lease_id: job.lease.id, result: resultFor(61.2) })).status).toBe(200);
    expect(await usage(seed.sessionId)).toMatchObject({ status: "settled", settledCents: 9, measuredSeconds: 62 });
    expect((await row(seed.sessionId)).costCents).toBe(9);
    expect(await balanceOf(org)).toMatchObject({ credit_cents: 41, held_cents: 0, available_cents: 41 });
  });

  it("not covered: the session fails with `unknown` and a sentence naming length, cost and credit; hold voided, nothing charged, the runner told to stop", async () => {
    // The case: 2 cents, a 60-second video submitted with `duration_seconds: 1`.
    const org = await createOrg({ creditsCents: 2 });
    const seed = await seedUploadSession(org, { heldCents: 1 });
    await prepare(seed);
    const job = await claim();
    const res = await runner(`/jobs/${job.id}/measured`, { lease_id: job.lease.id, duration_seconds: 60 });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ proceed: false, needed_cents: 9, held_cents: 0 });

    const session: any = await (await call(`/v1/sessions/${seed.sessionId}`, { key: org.key })).json();
    expect(session).toMatchObject({ status: "failed", duration_seconds: 60, cost_cents: null });
    expect(session.error).toEqual({
      code: "unknown",
      message: "The video is 60 seconds long, which costs 9 cents, but only 2 cents of credit was available. Nothing was charged; add credit, then submit the video again.",
    });
    expect(await usage(seed.sessionId)).toMatchObject({ status: "voided", settledCents: null });
    expect(await balanceOf(org)).toMatchObject({ credit_cents: 2, held_cents: 0, available_cents: 2 });
    expect((await jobRow(seed.jobId)).status).toBe("failed");
    expect((await eventsFor(seed.sessionId)).map((e) => e.type)).toEqual(["session.failed"]);
    // The upload is kept: after a top-up the same file can be submitted again.
    expect(await env.MEDIA.head(seed.r2Key)).not.toBeNull();

    // A repeated report with the same lease gets the same answer; nothing else the runner sends counts now.
    expect(await (await runner(`/jobs/${job.id}/measured`, { lease_id: job.lease.id, duration_seconds: 60 })).json()).toEqual({ proceed: false, needed_cents: 9, held_cents: 0 });
    await storeOutputs(seed.sessionId, resultFor(60));
    await expectError(await runner(`/jobs/${job.id}/complete`, { lease_id: job.lease.id, result: resultFor(60) }), 409, "lease_lost");
    expect(await usage(seed.sessionId)).toMatchObject({ status: "voided", settledCents: null });
    expect(await balanceOf(org)).toMatchObject({ credit_cents: 2, held_cents: 0 });
    expect((await eventsFor(seed.sessionId)).length).toBe(1);
  });

  it("counts only this organization's available credit: another session's hold is not available", async () => {
    const org = await createOrg({ creditsCents: 10 });
    const other = await seedUploadSession(org, { heldCents: 5 });
    const seed = await seedUploadSession(org, { heldCents: 1 });
    await prepare(other);
    await prepare(seed);
    const claimed = [await claim(), await claim()];
    const job = claimed.find((j) => j.id === seed.jobId);
    // 9 cents needed; 10 − 5 held elsewhere = 5 for this session.
    expect(await (await runner(`/jobs/${job.id}/measured`, { lease_id: job.lease.id, duration_seconds: 60 })).json()).toMatchObject({ proceed: false });
    expect((await row(seed.sessionId)).errorMessage).toContain("only 5 cents of credit was available");
    expect(await balanceOf(org)).toMatchObject({ credit_cents: 10, held_cents: 5 });
  });

  it("refuses a wrong lease, an unknown job and a bad length, changing nothing", async () => {
    const org = await createOrg({ creditsCents: 2 });
    const seed = await seedUploadSession(org, { heldCents: 1 });
    await prepare(seed);
    const job = await claim();
    await expectError(await runner(`/jobs/${job.id}/measured`, { lease_id: "lease_not_mine", duration_seconds: 60 }), 409, "lease_lost");
    await expectError(await runner(`/jobs/job_unknown/measured`, { lease_id: job.lease.id, duration_seconds: 60 }), 404, "resource_missing", "id");
    await expectError(await runner(`/jobs/${job.id}/measured`, { lease_id: job.lease.id, duration_seconds: 0 }), 400, "parameter_invalid", "duration_seconds");
    await expectError(await runner(`/jobs/${job.id}/measured`, { lease_id: job.lease.id }), 400, "parameter_invalid", "duration_seconds");
    expect(await row(seed.sessionId)).toMatchObject({ status: "processing", durationSeconds: null });
    expect(await usage(seed.sessionId)).toMatchObject({ status: "held", heldCents: 1 });
  });
});

describe("job preparation", () => {
  it("fails the session with source_unavailable when the upload's bytes are gone", async () => {
    const org = await createOrg({ creditsCents: 5000 });
    const seed = await seedUploadSession(org);
    await env.MEDIA.delete(seed.r2Key);
    const result = await prepare(seed);
    expect(result.explicitAcks).toEqual(["m0"]);
    expect(await row(seed.sessionId)).toMatchObject({ status: "failed", errorCode: "source_unavailable" });
    expect((await usage(seed.sessionId)).status).toBe("voided");
    expect((await eventsFor(seed.sessionId)).map((e) => e.type)).toEqual(["session.failed"]);
  });

  describe("links", () => {
    /** What POST /v1/sessions leaves behind for a link source. */
    async function seedLinkSession(org: TestOrg, url: string) {
      const sessionId = newId("sess");
      const jobId = newId("job");
      await db.batch([
        db.insert(schema.sessions).values({ id: sessionId, orgId: org.orgId, groupId: org.groupId, apiKeyId: org.keyId, status: "queued", sourceType: "url", sourceUrl: url, metadata: {}, options: { session_type: "5v5" } }),
        db.insert(schema.usageEvents).values({ id: newId("ue"), orgId: org.orgId, sessionId, apiKeyId: org.keyId, status: "held", heldCents: 1000, estimatedSeconds: 7200 }),
        db.insert(schema.jobs).values({ id: jobId, sessionId, orgId: org.orgId, status: "pending" }),
      ]);
      return { sessionId, jobId };
    }

    it("makes a reachable video link claimable, with the link as the download URL", async () => {
      const org = await createOrg({ creditsCents: 5000 });
      const seed = await seedLinkSession(org, videoUrl(5_000_000));
      expect((await prepare(seed)).explicitAcks).toEqual(["m0"]);
      expect(await jobRow(seed.jobId)).toMatchObject({ status: "ready", downloadUrl: videoUrl(5_000_000) });
      // Not claimable by the later tests of this file, which share its database.
      await db.update(schema.jobs).set({ status: "failed" }).where(eqId(schema.jobs.id, seed.jobId));
    });

    it("fails a link that answers 404 with source_unavailable and a message the customer can act on", async () => {
      const org = await createOrg({ creditsCents: 5000 });
      const seed = await seedLinkSession(org, `${VIDEOS}/status/404`);
      await prepare(seed);
      const failed = await row(seed.sessionId);
      expect(failed).toMatchObject({ status: "failed", errorCode: "source_unavailable" });
      expect(failed.errorMessage).toBe(
        "The link answered HTTP 404 (not found). It must download without signing in: check that the file is public and the link has not expired, then submit again.",
      );
      expect((await usage(seed.sessionId)).status).toBe("voided");
    });

    it("fails a link that serves a web page with source_invalid", async () => {
      const org = await createOrg({ creditsCents: 5000 });
      const seed = await seedLinkSession(org, `${VIDEOS}/page?bytes=500`);
      await prepare(seed);
      const failed = await row(seed.sessionId);
      expect(failed).toMatchObject({ status: "failed", errorCode: "source_invalid" });
      expect(failed.errorMessage).toBe("The link serves a web page (text/html), not an MP4 or MOV video file. Link to the video file itself.");
    });

    it("fails a link whose video is over 10 GB with video_too_large, learnt from Content-Range", async () => {
      const org = await createOrg({ creditsCents: 5000 });
      const seed = await seedLinkSession(org, videoUrl(10_000_000_001));
      await prepare(seed);
      expect(await row(seed.sessionId)).toMatchObject({ status: "failed", errorCode: "video_too_large" });
    });

    it("retries a link that cannot be reached, and fails it with source_unavailable on the last delivery", async () => {
      const org = await createOrg({ creditsCents: 5000 });
      const seed = await seedLinkSession(org, `${VIDEOS}/status/503`);
      const early = await runQueue("hoops-jobs-staging", [{ type: "prepare", session_id: seed.sessionId, job_id: seed.jobId }], 1);
      expect(early.retryMessages).toHaveLength(1);
      expect((await row(seed.sessionId)).status).toBe("queued");
      const last = await runQueue("hoops-jobs-staging", [{ type: "prepare", session_id: seed.sessionId, job_id: seed.jobId }], PREPARE_ATTEMPTS);
      expect(last.explicitAcks).toEqual(["m0"]);
      const failed = await row(seed.sessionId);
      expect(failed).toMatchObject({ status: "failed", errorCode: "source_unavailable" });
      expect(failed.errorMessage).toMatch(/^The link answered HTTP 503\. We kept trying/);
      expect((await usage(seed.sessionId)).status).toBe("voided");
    });

    it("refuses a link that now resolves to a private address with source_invalid", async () => {
      const org = await createOrg({ creditsCents: 5000 });
      const seed = await seedLinkSession(org, "https://private.example.test/game.mp4");
      await prepare(seed);
      expect(await row(seed.sessionId)).toMatchObject({ status: "failed", errorCode: "source_invalid" });
    });
  });

  it("the dead-letter consumer fails the session with unknown instead of leaving it queued", async () => {
    const org = await createOrg({ creditsCents: 5000 });
    const seed = await seedUploadSession(org);
    const result = await runQueue("hoops-jobs-dlq-staging", [{ type: "prepare", session_id: seed.sessionId, job_id: seed.jobId }]);
    expect(result.explicitAcks).toEqual(["m0"]);
    expect(await row(seed.sessionId)).toMatchObject({ status: "failed", errorCode: "unknown" });
    expect((await usage(seed.sessionId)).status).toBe("voided");
  });
});

describe("sweeps", () => {
  const depsAt = (offsetSeconds: number) => lifecycleDeps(buildServices(env, () => Math.floor(Date.now() / 1000) + offsetSeconds), "https://api.test");

  it("fails a job silent for 24 hours with timeout, voids the hold and still emits session.failed", async () => {
    const org = await createOrg({ creditsCents: 5000 });
    const seed = await seedUploadSession(org);
    await prepare(seed);
    await claim();
    expect((await sweepJobs(depsAt(23 * 3600))).timedOut).toBe(0);
    expect((await row(seed.sessionId)).status).toBe("processing");
    const swept = await sweepJobs(depsAt(24 * 3600 + 60));
    expect(swept.timedOut).toBeGreaterThanOrEqual(1);
    expect(await row(seed.sessionId)).toMatchObject({ status: "failed", errorCode: "timeout" });
    expect((await usage(seed.sessionId)).status).toBe("voided");
    expect((await eventsFor(seed.sessionId)).map((e) => e.type)).toEqual(["session.failed"]);
  });

  it("fails a job still running 24 hours after submit, even though its runner keeps heartbeating", async () => {
    const org = await createOrg({ creditsCents: 5000 });
    const seed = await seedUploadSession(org);
    await prepare(seed);
    const job = await claim();
    expect(job.id).toBe(seed.jobId);
    // Hung work: the heartbeat keeps the job fresh, but it was submitted a day ago.
    await db.update(schema.jobs).set({ created: Math.floor(Date.now() / 1000) - 24 * 3600 - 60 }).where(eqId(schema.jobs.id, seed.jobId));
    expect((await runner(`/jobs/${job.id}/heartbeat`, { lease_id: job.lease.id })).status).toBe(200);
    expect((await sweepJobs(depsAt(0))).timedOut).toBeGreaterThanOrEqual(1);
    expect(await row(seed.sessionId)).toMatchObject({ status: "failed", errorCode: "timeout" });
    expect((await usage(seed.sessionId)).status).toBe("voided");
    // The runner learns it on its next heartbeat and stops.
    await expectError(await runner(`/jobs/${job.id}/heartbeat`, { lease_id: job.lease.id }), 409, "lease_lost");
  });

  it("a job whose lease expired after its last attempt fails with unknown", async () => {
    const org = await createOrg({ creditsCents: 5000 });
    const seed = await seedUploadSession(org);
    await prepare(seed);
    await claim();
    await db.update(schema.jobs).set({ attempts: MAX_ATTEMPTS, leaseExpiresAt: Math.floor(Date.now() / 1000) - 1 }).where(eqId(schema.jobs.id, seed.jobId));
    expect(await claimNextJob(depsAt(0), runnerTokenId).then((j) => j?.id === seed.jobId)).toBe(false);
    await sweepJobs(depsAt(0));
    expect(await row(seed.sessionId)).toMatchObject({ status: "failed", errorCode: "unknown" });
    expect((await usage(seed.sessionId)).status).toBe("voided");
  });
});

describe("release", () => {
  it("hands a job back so another runner can claim it at once, without using up an attempt", async () => {
    const org = await createOrg({ creditsCents: 5000 });
    const seed = await seedUploadSession(org);
    await prepare(seed);
    const first = await claim();
    expect((await runner(`/jobs/${first.id}/release`, { lease_id: first.lease.id, reason: "shutdown" })).status).toBe(200);
    const second = await claim();
    expect(second.id).toBe(seed.jobId);
    expect(second.attempt).toBe(1);
    await expectError(await runner(`/jobs/${first.id}/release`, { lease_id: first.lease.id }), 409, "lease_lost");
    expect((await row(seed.sessionId)).status).toBe("processing");
  });
});

describe("session and job agree", () => {
  // The pairs docs/sessions.md lists: a job waiting (pending, ready) ⇔ session queued, leased ⇔ processing,
  // done ⇔ processed, failed ⇔ failed.
  const SESSION_OF_JOB: Record<string, string> = { pending: "queued", ready: "queued", leased: "processing", done: "processed", failed: "failed" };
  async function expectPair(seed: { sessionId: string; jobId: string }, jobStatus: string) {
    const job = await jobRow(seed.jobId);
    const session = await row(seed.sessionId);
    expect({ job: job.status, session: session.status }).toEqual({ job: jobStatus, session: SESSION_OF_JOB[jobStatus] });
  }

  it("after every runner call: claim, heartbeat, release (back to queued), claim again, complete", async () => {
    const org = await createOrg({ creditsCents: 5000 });
    const seed = await seedUploadSession(org);
    await expectPair(seed, "pending");
    await prepare(seed);
    await expectPair(seed, "ready");
    const first = await claim();
    await expectPair(seed, "leased");
    expect((await runner(`/jobs/${first.id}/heartbeat`, { lease_id: first.lease.id, stage: "download" })).status).toBe(200);
    await expectPair(seed, "leased");
    expect((await runner(`/jobs/${first.id}/release`, { lease_id: first.lease.id, reason: "shutdown" })).status).toBe(200);
    await expectPair(seed, "ready");
    // A stale release changes neither.
    await expectError(await runner(`/jobs/${first.id}/release`, { lease_id: first.lease.id }), 409, "lease_lost");
    await expectPair(seed, "ready");
    const second = await claim();
    expect(second.id).toBe(seed.jobId);
    await expectPair(seed, "leased");
    await storeOutputs(seed.sessionId, resultFor(30));
    expect((await runner(`/jobs/${second.id}/complete`, { lease_id: second.lease.id, result: resultFor(30) })).status).toBe(200);
    await expectPair(seed, "done");
  });

  it("after every runner call: claim, release, claim, fail", async () => {
    const org = await createOrg({ creditsCents: 5000 });
    const seed = await seedUploadSession(org);
    await prepare(seed);
    const first = await claim();
    await expectPair(seed, "leased");
    expect((await runner(`/jobs/${first.id}/release`, { lease_id: first.lease.id })).status).toBe(200);
    await expectPair(seed, "ready");
    const second = await claim();
    await expectPair(seed, "leased");
    expect((await runner(`/jobs/${second.id}/fail`, { lease_id: second.lease.id, code: "no_hoops", message: "no hoop" })).status).toBe(200);
    await expectPair(seed, "failed");
  });
});

describe("stranded jobs", () => {
  it("re-sends the prepare message of a job left pending by a lost queue send, once", async () => {
    const org = await createOrg({ creditsCents: 5000 });
    const seed = await seedUploadSession(org);
    const later = lifecycleDeps(buildServices(env, () => Math.floor(Date.now() / 1000) + 20 * 60), "https://api.test");
    const sent: unknown[] = [];
    const spy = { ...later, env: { ...later.env, JOBS_QUEUE: { send: async (m: unknown) => void sent.push(m) } as never } };
    expect((await sweepJobs(spy)).requeued).toBeGreaterThanOrEqual(1);
    expect(sent).toContainEqual({ type: "prepare", session_id: seed.sessionId, job_id: seed.jobId });
    // Once only: a second sweep leaves it alone.
    sent.length = 0;
    await sweepJobs(spy);
    expect(sent).not.toContainEqual({ type: "prepare", session_id: seed.sessionId, job_id: seed.jobId });
    // The message prepares the job as usual.
    await prepare(seed);
    expect((await jobRow(seed.jobId)).status).toBe("ready");
  });
});

describe("reports cut short", () => {
  const depsNow = () => lifecycleDeps(buildServices(env, () => Math.floor(Date.now() / 1000)), "https://api.test");
  /** Claims until this seed's job comes up (earlier tests of the file leave claimable jobs behind). */
  async function claimJob(seed: { jobId: string }) {
    for (let i = 0; i < 20; i++) {
      const job = await claim();
      if (job?.id === seed.jobId) return job;
    }
    throw new Error(`job ${seed.jobId} was never claimed`);
  }
  /** An organization with 50 dollars and one uploaded session whose job this runner has claimed. */
  async function claimedSession() {
    const org = await createOrg({ creditsCents: 5000 });
    const seed = await seedUploadSession(org);
    await prepare(seed);
    return { org, seed, job: await claimJob(seed) };
  }

  it("a failed session's hold is voided with the failure; a repeated fail report finishes the rest (the event)", async () => {
    const { org, seed, job } = await claimedSession();
    // The first report dies after the state change: the hold went with it, in the same transaction.
    const broken = { ...depsNow(), voidHold: async () => { throw new Error("D1 went away"); } };
    await expect(failJob(broken, job.id, job.lease.id, "no_shots", "no shot attempts were detected")).rejects.toThrow("D1 went away");
    expect(await row(seed.sessionId)).toMatchObject({ status: "failed", errorCode: "no_shots" });
    expect((await jobRow(seed.jobId)).status).toBe("failed");
    expect((await usage(seed.sessionId)).status).toBe("voided");
    expect(((await (await call("/v1/balance", { key: org.key })).json()) as any).held_cents).toBe(0);
    expect(await eventsFor(seed.sessionId)).toEqual([]);
    // The runner retries its report with the same lease.
    const res = await runner(`/jobs/${job.id}/fail`, { lease_id: job.lease.id, code: "no_shots", message: "no shot attempts were detected" });
    expect(res.status).toBe(200);
    expect((await usage(seed.sessionId)).status).toBe("voided");
    expect((await eventsFor(seed.sessionId)).map((e) => e.type)).toEqual(["session.failed"]);
  });

  it("the cron voids or settles the hold of a session that finished while its runner never reported again", async () => {
    const org = await createOrg({ creditsCents: 5000 });
    const failed = await seedUploadSession(org);
    await prepare(failed);
    const failedJob = await claimJob(failed);
    const broken = { ...depsNow(), voidHold: async () => { throw new Error("cut off") } };
    await expect(failJob(broken, failedJob.id, failedJob.lease.id, "no_hoops", "no hoop was found in the video")).rejects.toThrow();
    // A failed session whose hold is still held (failed before the void joined the failure's batch). Made here by undoing the void.
    await db.update(schema.usageEvents).set({ status: "held", voidedAt: null }).where(eqId(schema.usageEvents.sessionId, failed.sessionId));

    // A processed session whose hold is still held: its result's batch found the credit moved after
    // the settle was planned, and the settle after it was cut off (or a session processed before the
    // settle moved into that batch). Made here by undoing the batch's settle.
    const done = await seedUploadSession(org);
    await prepare(done);
    const doneJob = await claimJob(done);
    await storeOutputs(done.sessionId, resultFor(61.2));
    await completeJob(depsNow(), doneJob.id, doneJob.lease.id, JobResult.parse(resultFor(61.2)));
    await db.update(schema.usageEvents).set({ status: "held", settledCents: null, measuredSeconds: null, settledAt: null }).where(eqId(schema.usageEvents.sessionId, done.sessionId));
    await db.update(schema.sessions).set({ costCents: null }).where(eqId(schema.sessions.id, done.sessionId));
    await db.update(schema.creditGrants).set({ remainingCents: 5000 }).where(eqId(schema.creditGrants.orgId, org.orgId));
    await db.delete(schema.events).where(sql`json_extract(${schema.events.data}, '$.object.id') = ${done.sessionId}`);
    expect((await row(done.sessionId)).status).toBe("processed");
    expect((await usage(done.sessionId)).status).toBe("held");

    const swept = await sweepJobs(depsNow());
    expect(swept.reconciled).toBeGreaterThanOrEqual(2);
    expect((await usage(failed.sessionId)).status).toBe("voided");
    expect((await eventsFor(failed.sessionId)).map((e) => e.type)).toEqual(["session.failed"]);
    expect(await usage(done.sessionId)).toMatchObject({ status: "settled", measuredSeconds: 62, settledCents: 9 });
    expect((await eventsFor(done.sessionId)).map((e) => e.type)).toEqual(["session.processed"]);
    // Nothing left to do on the next run.
    expect((await sweepJobs(depsNow())).reconciled).toBe(0);
  });

  it("a processed session carries its cost: the settle is in the batch that stores the result", async () => {
    const { org, seed, job } = await claimedSession();
    await storeOutputs(seed.sessionId, resultFor(61.2));
    // Everything after the batch cut off: the session is processed and charged all the same, at once.
    const recharged: string[] = [];
    const cutOff = {
      ...depsNow(),
      settleHold: async () => { throw new Error("cut off") },
      rechargeIfDue: async (orgId: string) => { recharged.push(orgId) },
      emitSessionEvent: async () => { throw new Error("cut off") },
    };
    await expect(completeJob(cutOff, job.id, job.lease.id, JobResult.parse(resultFor(61.2)))).rejects.toThrow("cut off");
    expect(await row(seed.sessionId)).toMatchObject({ status: "processed", costCents: 9 });
    expect(await usage(seed.sessionId)).toMatchObject({ status: "settled", settledCents: 9, measuredSeconds: 62 });
    expect((await (await call(`/v1/sessions/${seed.sessionId}`, { key: org.key })).json()) as any).toMatchObject({ status: "processed", cost_cents: 9 });
    const balance: any = await (await call("/v1/balance", { key: org.key })).json();
    expect(balance).toMatchObject({ held_cents: 0, credit_cents: 5000 - 9 });
    // The settle moved the ledger, so the auto-recharge step ran, once; a repeated report does not run it again.
    expect(recharged).toEqual([org.orgId]);
    await completeJob({ ...depsNow(), rechargeIfDue: cutOff.rechargeIfDue }, job.id, job.lease.id, JobResult.parse(resultFor(61.2)));
    expect(recharged).toEqual([org.orgId]);
    expect((await eventsFor(seed.sessionId)).map((e) => e.type)).toEqual(["session.processed"]);
  });

  it("a stale runner's result settles nothing", async () => {
    const { org, seed, job } = await claimedSession();
    await storeOutputs(seed.sessionId, resultFor(61.2));
    await expectError(await runner(`/jobs/${job.id}/complete`, { lease_id: "lease_stale", result: resultFor(61.2) }), 409, "lease_lost");
    expect(await row(seed.sessionId)).toMatchObject({ status: "processing", costCents: null });
    expect((await usage(seed.sessionId)).status).toBe("held");
    expect(((await (await call("/v1/balance", { key: org.key })).json()) as any).credit_cents).toBe(5000);
  });

  it("the cron emits the event of a finished session whose event could not be queued", async () => {
    const { seed, job } = await claimedSession();
    const noEvent = { ...depsNow(), emitSessionEvent: async () => { throw new Error("queue send failed") } };
    await expect(failJob(noEvent, job.id, job.lease.id, "no_court", "the court (painted key) could not be located")).rejects.toThrow();
    expect((await usage(seed.sessionId)).status).toBe("voided");
    expect(await eventsFor(seed.sessionId)).toEqual([]);
    // Reports still in flight get a minute's grace; after it the cron emits the missing event, once.
    const later = lifecycleDeps(buildServices(env, () => Math.floor(Date.now() / 1000) + 120), "https://api.test");
    expect((await sweepJobs(later)).reconciled).toBeGreaterThanOrEqual(1);
    const emitted = await eventsFor(seed.sessionId);
    expect(emitted.map((e) => e.type)).toEqual(["session.failed"]);
    expect((emitted[0].data as any).object).toMatchObject({ status: "failed", error: { code: "no_court" } });
    await sweepJobs(later);
    expect((await eventsFor(seed.sessionId)).length).toBe(1);
  });
});
