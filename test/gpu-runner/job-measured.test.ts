// The measured step on the runner's side (issue 22, point 1): right after the probe, before any
// analysis or rendering, the runner reports the measured length; when the API answers
// `proceed: false` (the balance cannot cover the measured cost, the session has already failed),
// the job stops there and the runner reports nothing more. A real runner loop, real download and
// ffprobe; the API is a recording stand-in.
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNNER_API_PREFIX } from "../../contract/runner-api";
import { RunnerApi, type Transport } from "../../gpu-runner/api";
import { createLogger } from "../../gpu-runner/log";
import { Runner } from "../../gpu-runner/loop";
import { detectMediaHardware } from "../../gpu-runner/media/hardware";
import { AnalysisModels } from "../../gpu-runner/vision/models";
import { makeTestVideo } from "../e2e/runner-process";
import { serveVideo } from "./fixtures";

const dir = mkdtempSync(path.join(tmpdir(), "job-measured-"));
const VIDEO_SECONDS = 3;
let video: Awaited<ReturnType<typeof serveVideo>>;
let origin: string;

beforeAll(async () => {
  const file = path.join(dir, "source.mp4");
  makeTestVideo(file, { width: 320, height: 240, seconds: VIDEO_SECONDS });
  video = await serveVideo(file);
  origin = video.origin;
});

afterAll(() => video.close());

const job = () => ({
  id: "job_1", session: "sess_1", lease: { id: "lease_1", expires_at: Math.floor(Date.now() / 1000) + 120 }, attempt: 1,
  source: { type: "upload", download_url: `${origin}/media/uploads/up_1` },
  options: { session_type: "5v5", court_type: "full", camera_setup: "fixed", has_jerseys: true, jerseys: "auto" }, rosters: null,
});

/**
 * One job through a real Runner against an API stand-in that answers the measured step with
 * `proceed`, refuses output reservations (so a job that goes on ends right after its first piece
 * of work), and records every call and progress stage in one timeline.
 */
async function runOneJob(proceed: boolean | "older API", pipeline: "full" | "media") {
  const timeline: string[] = [];
  const bodies: Record<string, unknown> = {};
  let claims = 0;
  let runner!: Runner;
  const transport: Transport = async (url, init) => {
    const route = new URL(url).pathname.slice(RUNNER_API_PREFIX.length).replace(/^\/jobs\/(job_1\/)?/, "");
    const body = JSON.parse(String(init.body));
    const json = (status: number, value: unknown) => new Response(JSON.stringify(value), { status, headers: { "Content-Type": "application/json" } });
    if (route === "claim") {
      if (claims++ === 0) return json(200, { job: job() });
      runner.stop(); // one job is enough
      return json(200, { job: null });
    }
    timeline.push(`api ${route}`);
    bodies[route] = body;
    if (route === "heartbeat") return json(200, { lease_expires_at: Math.floor(Date.now() / 1000) + 120, cancel: false });
    if (route === "measured" && proceed === "older API") return json(404, { error: { type: "invalid_request_error", code: "route_not_found", message: "Unrecognized request URL" } });
    if (route === "measured") return json(200, { proceed, needed_cents: 1, held_cents: proceed ? 1 : 0 });
    if (route === "outputs") return json(400, { error: { type: "invalid_request_error", code: "parameter_invalid", message: "refused by the test" } });
    return json(200, route === "fail" ? { status: "failed" } : route === "release" ? { status: "released" } : { status: "processed" });
  };
  const lines: string[] = [];
  const log = createLogger({}, (line) => {
    lines.push(line);
    const entry = JSON.parse(line);
    if (entry.msg === "progress") timeline.push(`stage ${entry.stage}`);
  });
  const workDir = path.join(dir, `work-${pipeline}-${proceed}`);
  runner = new Runner(
    new RunnerApi(origin, "hr_test", { attempts: 1, baseMs: 1, maxMs: 1 }, transport),
    { concurrency: 1, workDir, pipeline, apiOrigin: origin, allowLoopbackUrls: true, claimWaitSeconds: 0, keepWork: true, models: new AnalysisModels() },
    await detectMediaHardware(),
    log,
  );
  await runner.run();
  const jobDir = readdirSync(workDir).map((d) => path.join(workDir, d))[0];
  return { timeline: timeline.filter((t, i) => t !== timeline[i - 1] && t !== "api heartbeat"), bodies, files: readdirSync(jobDir).sort(), lines };
}

describe("the measured step, runner side", () => {
  it("reports the probed length before any analysis, and when told to stop, stops with no further work and no report", async () => {
    const { timeline, bodies, files, lines } = await runOneJob(false, "full");
    expect(timeline).toEqual(["stage download", "stage probe", "api measured"]);
    expect(bodies.measured).toEqual({ lease_id: "lease_1", duration_seconds: expect.closeTo(VIDEO_SECONDS, 0) });
    // Nothing analysed or rendered: the work folder holds the downloaded source only.
    expect(files).toEqual(["source.video"]);
    expect(lines.some((l) => l.includes("job stopped by the API"))).toBe(true);
  });

  it("goes on with the job when the API says proceed", async () => {
    const { timeline } = await runOneJob(true, "media");
    // The job ends at the refused output reservation, after the work the measured step allowed.
    expect(timeline).toEqual(["stage download", "stage probe", "api measured", "stage renditions", "stage upload", "api outputs", "api fail"]);
  });

  it("goes on as before against an API older than the step (404 route_not_found), so runners may be upgraded first", async () => {
    const { timeline, lines } = await runOneJob("older API", "media");
    expect(timeline).toEqual(["stage download", "stage probe", "api measured", "stage renditions", "stage upload", "api outputs", "api fail"]);
    expect(lines.some((l) => l.includes("the API has no measured step"))).toBe(true);
  });
});
