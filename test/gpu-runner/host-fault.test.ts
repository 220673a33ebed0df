// Faults that are not the video's. A full or read-only disk is the runner host's fault, never the video's (docs/runner.md, "Faults of
// the host"): the job is handed back for a healthy runner and this runner stops, instead of failing
// the customer's session as `unknown` and then every job it claims. The full disk is real: Linux's
// /dev/full answers every write with ENOSPC, and the real ffmpeg writes into it through a link.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNNER_API_PREFIX } from "../../contract/runner-api";
import { RunnerApi, type Transport } from "../../gpu-runner/api";
import { HostFaultError, hostFaultOf } from "../../gpu-runner/host-fault";
import { createLogger } from "../../gpu-runner/log";
import { Runner } from "../../gpu-runner/loop";
import { FFMPEG } from "../../gpu-runner/media/binaries";
import { detectMediaHardware } from "../../gpu-runner/media/hardware";
import { MediaError, runTool } from "../../gpu-runner/media/run";
import { AnalysisModels } from "../../gpu-runner/vision/models";
import { makeTestVideo } from "../e2e/runner-process";
import { serveVideo } from "./fixtures";

const dir = mkdtempSync(path.join(tmpdir(), "host-fault-"));
let video: Awaited<ReturnType<typeof serveVideo>>;
let origin: string;

beforeAll(async () => {
  const file = path.join(dir, "source.mp4");
  makeTestVideo(file, { width: 640, height: 480, seconds: 2 });
  video = await serveVideo(file);
  origin = video.origin;
});

afterAll(async () => {
  await video.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("host faults", () => {
  it("a file write that finds the disk full is a host fault; other errors are not", () => {
    let full: unknown;
    try {
      writeFileSync("/dev/full", "x");
    } catch (err) {
      full = err;
    }
    expect((full as NodeJS.ErrnoException).code).toBe("ENOSPC");
    expect(hostFaultOf(full)).toBeInstanceOf(HostFaultError);
    expect(hostFaultOf(full)!.message).toMatch(/work directory cannot be written \(ENOSPC\)/);
    const reset = Object.assign(new Error("socket hang up"), { code: "ECONNRESET" });
    expect(hostFaultOf(reset)).toBeNull();
    expect(hostFaultOf(new Error("anything else"))).toBeNull();
  });

  it("ffmpeg that cannot write its output for lack of space is a host fault; a bad input stays the video's", async () => {
    const fill = ["-hide_banner", "-y", "-f", "lavfi", "-i", "color=c=black:s=64x64:d=1", "-c:v", "libx264", "-f", "mp4", "/dev/full"];
    await expect(runTool(FFMPEG, fill)).rejects.toThrow(HostFaultError);
    await expect(runTool(FFMPEG, fill)).rejects.toThrow(/ffmpeg could not write its output: .*No space left on device/);
    const notVideo = path.join(dir, "not-a-video.mp4");
    writeFileSync(notVideo, "plain text");
    const bad = runTool(FFMPEG, ["-hide_banner", "-y", "-i", notVideo, "-f", "null", "-"]);
    await expect(bad).rejects.toThrow(MediaError);
    await expect(bad).rejects.not.toThrow(HostFaultError);
  });

  it("a job whose rendition hits a full disk is handed back, not failed, and the runner stops", async () => {
    const calls: string[] = [];
    let claims = 0;
    let runner!: Runner;
    const job = {
      id: "job_1", session: "sess_1", lease: { id: "lease_1", expires_at: Math.floor(Date.now() / 1000) + 120 }, attempt: 1,
      source: { type: "upload", download_url: `${origin}/media/uploads/up_1` },
      options: { session_type: "5v5", court_type: "full", camera_setup: "fixed", has_jerseys: true, jerseys: "auto" }, rosters: null,
    };
    const transport: Transport = async (url) => {
      const route = new URL(url).pathname.slice(RUNNER_API_PREFIX.length).replace(/^\/jobs\/(job_1\/)?/, "");
      const json = (value: unknown) => new Response(JSON.stringify(value), { status: 200, headers: { "Content-Type": "application/json" } });
      if (route === "claim") {
        if (claims++ === 0) return json({ job });
        runner.stop(); // a runner that failed the job instead would claim again: one job is enough
        return json({ job: null });
      }
      calls.push(route);
      if (route === "heartbeat") return json({ lease_expires_at: Math.floor(Date.now() / 1000) + 120, cancel: false });
      if (route === "measured") return json({ proceed: true, needed_cents: 1, held_cents: 1 });
      return json(route === "release" ? { status: "released" } : route === "fail" ? { status: "failed" } : { status: "processed" });
    };
    const lines: string[] = [];
    const workDir = path.join(dir, "work");
    // The 640×480 source gets a 360p rendition; its file is a link to the full device.
    const jobDir = path.join(workDir, "job_1-lease_1");
    mkdirSync(jobDir, { recursive: true });
    symlinkSync("/dev/full", path.join(jobDir, "rendition-360p.mp4"));
    runner = new Runner(
      new RunnerApi(origin, "hr_test", { attempts: 1, baseMs: 1, maxMs: 1 }, transport),
      { concurrency: 1, workDir, pipeline: "media", apiOrigin: origin, allowLoopbackUrls: true, claimWaitSeconds: 0, keepWork: true, models: new AnalysisModels() },
      await detectMediaHardware(),
      createLogger({}, (line) => lines.push(line)),
    );
    await expect(runner.run()).rejects.toThrow(/No space left on device/);
    expect(calls.filter((c) => c !== "heartbeat")).toEqual(["measured", "release"]);
    expect(lines.join("\n")).toMatch(/this host cannot run jobs/);
  });
});

describe("a claim answer this runner cannot read", () => {
  it("stops the runner at once instead of claiming (and stranding) job after job", async () => {
    let claims = 0;
    const transport: Transport = async () => {
      claims++;
      // A job from an API of another version: no lease, an id that is not a string.
      return new Response(JSON.stringify({ job: { id: 5, session: "sess_1" } }), { status: 200, headers: { "Content-Type": "application/json" } });
    };
    const lines: string[] = [];
    const runner = new Runner(
      new RunnerApi(origin, "hr_test", { attempts: 1, baseMs: 1, maxMs: 1 }, transport),
      { concurrency: 1, workDir: path.join(dir, "work-contract"), pipeline: "media", apiOrigin: origin, allowLoopbackUrls: true, claimWaitSeconds: 0, keepWork: true, models: new AnalysisModels() },
      await detectMediaHardware(),
      createLogger({}, (line) => lines.push(line)),
    );
    const stopLater = setTimeout(() => runner.stop(), 5_000); // a runner that backs off and claims again
    try {
      await expect(runner.run()).rejects.toThrow(/does not match the runner API contract/);
    } finally {
      clearTimeout(stopLater);
    }
    expect(claims).toBe(1);
    expect(lines.join("\n")).toMatch(/does not match this runner's contract/);
  });
});
