// The runner API contract, both ways: the real runner client (gpu-runner/api.ts)
// and the runner's own result builder (gpu-runner/result.ts) against this
// Worker, with real local D1, R2, Durable Objects and queues. Every request the
// client sends and every answer the Worker gives is checked against
// contract/runner-api.ts — it must parse, and carry no key the contract does
// not know (zod would drop it silently). Then, over random results: the
// players' stats the API serves always agree with the shots that name them.
import { exports } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { SHOT_ROLES } from "../../contract/box-score";
import * as schema from "../../drizzle/schema";
import { RUNNER_API_PREFIX, RUNNER_ROUTES, type JobResultInput, type RunnerRoute } from "../../contract/runner-api";
import { ApiRequestError, RunnerApi, type Transport } from "../../gpu-runner/api";
import type { AnalysisResult } from "../../gpu-runner/analysis/types";
import type { RenderedHighlight } from "../../gpu-runner/outputs/highlights";
import { analysisOutputs, jobResult } from "../../gpu-runner/result";
import { lineFromShots, specPoints } from "../support/box-score-truth";
import { contractViolations } from "../support/contract-check";
import { admin, BASE, call, createOrg, type TestOrg } from "./helpers";
import { db } from "./session-fixtures";
import { prepare, seedUploadSession } from "./job-fixtures";

interface Exchange {
  route: RunnerRoute;
  status: number;
  request: unknown;
  answer: unknown;
}

const worker = () => (exports as unknown as { default: Fetcher }).default;

function routeOf(url: string): RunnerRoute {
  const path = new URL(url).pathname.slice(RUNNER_API_PREFIX.length);
  const route = (Object.keys(RUNNER_ROUTES) as RunnerRoute[]).find((r) => new RegExp(`^${RUNNER_ROUTES[r].path.replace("{id}", "[^/]+")}$`).test(path));
  if (!route) throw new Error(`the client called a route the contract does not have: ${path}`);
  return route;
}

/** The runner's client, reaching this Worker through its own fetch handler, with every exchange recorded. */
function recordingClient(token: string) {
  const exchanges: Exchange[] = [];
  const transport: Transport = async (url, init) => {
    const res = await worker().fetch(new Request(url, init));
    const text = await res.clone().text();
    exchanges.push({ route: routeOf(url), status: res.status, request: JSON.parse(String(init.body)), answer: text ? JSON.parse(text) : null });
    return res;
  };
  return { api: new RunnerApi(BASE, token, { attempts: 1, baseMs: 1, maxMs: 1 }, transport), exchanges };
}

/** Every way the recorded exchanges differ from the contract: requests always, answers when they succeeded. */
function violations(exchanges: Exchange[]): string[] {
  return exchanges.flatMap((e) => [
    ...contractViolations(RUNNER_ROUTES[e.route].request, e.request).map((v) => `${e.route} request: ${v}`),
    ...(e.status === 200 ? contractViolations(RUNNER_ROUTES[e.route].answer, e.answer).map((v) => `${e.route} answer: ${v}`) : []),
  ]);
}

let runnerToken: string;
beforeAll(async () => {
  runnerToken = (await admin("POST", "/admin/v1/runner_tokens", { name: "contract test runner" })).token;
});

async function claimSeeded(api: RunnerApi, org: TestOrg) {
  const seed = await seedUploadSession(org);
  await prepare(seed);
  const { job } = await api.claim(0);
  expect(job?.id).toBe(seed.jobId);
  return { job: job!, seed };
}

/** A finished analysis as the pipeline returns it, with what it keeps for itself (clip start, player stats, ball path). */
function analysisFixture(): AnalysisResult {
  const stats = { points: 0, fg_2pt_att: 0, fg_2pt_make: 0, fg_3pt_att: 0, fg_3pt_make: 0, ft_att: 0, ft_make: 0, assist: 0, rebound: 0 };
  const shot = (i: number, made: boolean, three: boolean, players: AnalysisResult["shots"][number]["players"]): AnalysisResult["shots"][number] => ({
    key: `shot_${i + 1}`, index: i, start_seconds: 3 + i * 10, end_seconds: 5 + i * 10, made, points: made ? (three ? 3 : 2) : 0, type: "fieldgoal",
    is_three_point: three, is_free_throw: false, is_fouled: false,
    location: { shot_image_normed: [0.4, 0.7], shot_world_normed: [0.5, 0.4], hoop_image_normed: [0.5, 0.3] }, court: { type: "nba", found_by: "lines" },
    excitement_score: made ? 0.6 : 0.2, players, highlight: `highlight_${i + 1}`,
  });
  const shots = [
    shot(0, true, true, { scorer: "player_1", assister: "player_2", rebounder: null }),
    shot(1, false, false, { scorer: "player_2", assister: null, rebounder: "player_3" }),
  ];
  return {
    run_version: 1,
    video: { duration_seconds: 30, width: 1280, height: 720, fps: 30 },
    shots,
    highlights: shots.map((s, i) => ({ key: `highlight_${i + 1}`, shot: s.key, shot_index: i, start_seconds: s.start_seconds - 3, length_seconds: 7.5, is_lowlight: !s.made, is_manual: false, player: s.players.scorer })),
    players: [
      { key: "player_1", jersey: "23", name: null, user_id: null, team_id: 0, metadata: {}, stats: { ...stats, points: 3, fg_3pt_att: 1, fg_3pt_make: 1 } },
      { key: "player_2", jersey: "7", name: "Sam", user_id: "u_7", team_id: 0, metadata: { user_id: "u_7" }, stats: { ...stats, assist: 1, fg_2pt_att: 1 } },
      { key: "player_3", jersey: null, name: null, user_id: null, team_id: 1, metadata: {}, stats: { ...stats, rebound: 1 } },
    ],
    totals: { ...stats, points: 3 },
    artifacts: { actions: "/work/artifacts/actions.jsonl", balls: "/work/artifacts/balls.jsonl", hoops: "/work/artifacts/hoops.jsonl", clusters: "/work/artifacts/clusters.jsonl" },
    ball_path: [[3, 0.5, 0.5]],
  };
}

const rendered: RenderedHighlight[] = [
  { key: "highlight_1", files: { default: "/work/h1/v.mp4", horizontal: "/work/h1/h.mp4", "1080p": null, "720p": "/work/h1/720.mp4", "480p": null, "360p": null, "240p": null, "144p": null }, preview: { default: "/work/h1/v.jpg", horizontal: null } },
  // The second clip failed to render: its highlight goes out with no files.
];

describe("the runner API contract, runner client against the Worker", () => {
  it("keeps every request and answer of a whole job, and of a released and a failed one, to the contract", async () => {
    const org = await createOrg({ creditsCents: 5000 });
    const { api, exchanges } = recordingClient(runnerToken);

    const { job, seed } = await claimSeeded(api, org);
    // 30 s cost 5 cents; the 10-dollar hold placed at submit already covers them.
    expect(await api.measured(job.id, job.lease.id, 29.97)).toEqual({ proceed: true, needed_cents: 5, held_cents: 1000 });
    expect(await api.heartbeat(job.id, job.lease.id, { stage: "analysis", percent: 40 })).toMatchObject({ cancel: false });
    const outputs = analysisOutputs(analysisFixture(), rendered);
    const renditions = { preview: "preview.jpg", "1080p": null, "720p": "renditions/720p.mp4", "360p": null };
    const files = [...outputs.files.map((f) => ({ name: f.name, contentType: f.contentType })), { name: "preview.jpg", contentType: "image/jpeg" }, { name: "renditions/720p.mp4", contentType: "video/mp4" }];
    for (const file of files) {
      const bytes = new TextEncoder().encode(`bytes of ${file.name}`);
      const target = await api.createOutput(job.id, job.lease.id, file.name, bytes.byteLength, file.contentType);
      expect(target).toMatchObject({ name: file.name, offset: 0 });
      const put = await worker().fetch(new Request(target.upload_url, { method: "PUT", body: bytes, headers: { "Content-Type": file.contentType, "Content-Length": String(bytes.byteLength) } }));
      expect(put.status, file.name).toBeLessThan(300);
    }
    const result = jobResult({ durationSeconds: 30, width: 1280, height: 720, fps: 30 }, renditions, outputs);
    expect(await api.complete(job.id, job.lease.id, result)).toEqual({ status: "processed" });

    // A job handed back, claimed again and failed.
    const second = await claimSeeded(api, org);
    expect(await api.release(second.job.id, second.job.lease.id, "runner shutting down")).toEqual({ status: "released" });
    const { job: again } = await api.claim(0);
    expect(again?.id).toBe(second.job.id);
    expect(await api.fail(again!.id, again!.lease.id, "no_hoops", "No basketball hoop was found in the video.")).toEqual({ status: "failed" });

    expect(new Set(exchanges.map((e) => e.route))).toEqual(new Set(Object.keys(RUNNER_ROUTES)));
    expect(exchanges.every((e) => e.status === 200), JSON.stringify(exchanges.filter((e) => e.status !== 200))).toBe(true);
    expect(violations(exchanges)).toEqual([]);

    // What the runner kept for itself did not travel; what it reported arrived whole.
    const completed = exchanges.find((e) => e.route === "complete")!.request as { result: JobResultInput };
    expect(completed.result.players?.every((p) => !("stats" in p))).toBe(true);
    expect(completed.result.highlights?.[1]).toMatchObject({ key: "highlight_2", video: { default: null }, preview: { default: null } });
    const session: any = await (await call(`/v1/sessions/${seed.sessionId}`, { key: org.key })).json();
    expect(session.status).toBe("processed");
    expect(session.shots.data.map((s: any) => [s.start_seconds, s.points, s.location.shot_world_normed])).toEqual([[3, 3, [0.5, 0.4]], [13, 0, [0.5, 0.4]]]);
    // Each shot's court is stored for the hub page's chart, and is not a field of the public Shot (the spec's has none).
    const stored = await db.select({ court: schema.shots.court }).from(schema.shots).where(eq(schema.shots.sessionId, seed.sessionId)).all();
    expect(stored.map((r) => r.court)).toEqual([{ type: "nba", found_by: "lines" }, { type: "nba", found_by: "lines" }]);
    expect(session.shots.data.filter((s: any) => "court" in s)).toEqual([]);
    expect(session.highlights.data[0].video.horizontal).toMatch(/^https:/);
    expect(session.players.data.map((p: any) => [p.jersey, p.name, p.stats.points, p.stats.assist, p.stats.rebound])).toEqual([["23", null, 3, 0, 0], ["7", "Sam", 0, 1, 0], [null, null, 0, 0, 1]]);
  });

  it("refuses a result whose shot names a player in a role the shot does not admit: no stat would count it", async () => {
    const org = await createOrg({ creditsCents: 5000 });
    const { api } = recordingClient(runnerToken);
    const { job } = await claimSeeded(api, org);
    const result: JobResultInput = {
      run_version: 1,
      video: { duration_seconds: 30, width: 1280, height: 720, fps: 30 },
      artifacts: { actions: null, balls: null, hoops: null, clusters: null },
      players: [{ key: "a" }, { key: "b" }],
      shots: [
        { key: "s1", made: true, points: 2, players: { scorer: "a", assister: "b" } },
        { key: "s2", made: true, points: 1, is_free_throw: true, type: "freethrow", players: { scorer: "a", assister: "b" } },
      ],
    };
    const refused = await api.complete(job.id, job.lease.id, result).catch((err) => err);
    expect(refused).toBeInstanceOf(ApiRequestError);
    expect(refused.status).toBe(400);
    expect(refused.message).toContain("only a made field goal has an assister");
    const missedWithAssist = { ...result, shots: [{ key: "s1", made: false, points: 0, players: { scorer: "a", assister: "b" } }] };
    expect((await api.complete(job.id, job.lease.id, missedWithAssist).catch((err) => err)).status).toBe(400);
    const madeWithRebound = { ...result, shots: [{ key: "s1", made: true, points: 2, players: { scorer: "a", rebounder: "b" } }] };
    expect((await api.complete(job.id, job.lease.id, madeWithRebound).catch((err) => err)).status).toBe(400);
    const unknownWithRebound = { ...result, shots: [{ key: "s1", made: null, players: { rebounder: "b" } }] };
    expect((await api.complete(job.id, job.lease.id, unknownWithRebound).catch((err) => err)).status).toBe(400);
    // The same result without the roles the shots cannot have is taken.
    const fixed = { ...result, shots: [{ ...result.shots![0] }, { ...result.shots![1], players: { scorer: "a" } }] };
    expect(await api.complete(job.id, job.lease.id, fixed)).toEqual({ status: "processed" });
  });
});

describe("box scores served by the API", () => {
  const KEYS = ["a", "b", "c", "d", "e"];
  const shot = fc
    .record({
      made: fc.constantFrom(true, false, null),
      is_free_throw: fc.boolean(),
      is_three_point: fc.constantFrom(true, false, null),
      scorer: fc.option(fc.constantFrom(...KEYS)),
      assister: fc.option(fc.constantFrom(...KEYS)),
      rebounder: fc.option(fc.constantFrom(...KEYS)),
    })
    .map(({ scorer, assister, rebounder, ...s }) => ({
      ...s,
      points: specPoints(s),
      type: s.is_free_throw ? ("freethrow" as const) : ("fieldgoal" as const),
      // The roles a runner may name (the contract's rule): anything else is refused (test above).
      players: {
        scorer,
        assister: s.made === true && !s.is_free_throw ? assister : null,
        rebounder: s.made === false ? rebounder : null,
      },
    }));
  const game = fc.record({
    players: fc.uniqueArray(fc.constantFrom(...KEYS), { maxLength: KEYS.length }),
    shots: fc.array(shot, { maxLength: 12 }),
  });

  it("always agree with the shots that name each player, and the totals count every shot", async () => {
    const org = await createOrg({ creditsCents: 100_000 });
    const { api } = recordingClient(runnerToken);
    await fc.assert(
      fc.asyncProperty(game, async ({ players, shots }) => {
        const known = new Set(players);
        const result: JobResultInput = {
          run_version: 1,
          video: { duration_seconds: 12, width: 640, height: 360, fps: 25 },
          artifacts: { actions: null, balls: null, hoops: null, clusters: null },
          players: players.map((key, i) => ({ key, jersey: String(i), team_id: i % 2 })),
          // Roles name only players the result has (an unknown key is refused as a broken cross-link).
          shots: shots.map((s, i) => ({ key: `s${i}`, index: i, ...s, players: Object.fromEntries(SHOT_ROLES.map((r) => [r, s.players[r] !== null && known.has(s.players[r]!) ? s.players[r] : null])) })),
        };
        const { job, seed } = await claimSeeded(api, org);
        await api.complete(job.id, job.lease.id, result);
        const session: any = await (await call(`/v1/sessions/${seed.sessionId}`, { key: org.key })).json();
        expect(session.shots.total_count).toBe(shots.length);
        for (const p of session.players.data) expect(p.stats).toEqual(lineFromShots(p.id, session.shots.data));
        const everyone = session.shots.data.map((s: any) => ({ ...s, players: { scorer: "all", assister: s.players.assister && "all", rebounder: s.players.rebounder && "all" } }));
        expect(session.totals).toEqual(lineFromShots("all", everyone));
      }),
      { numRuns: 12 },
    );
  });
});
