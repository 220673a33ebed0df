// The runner's side of the contract without a Worker: the client refuses an answer that does not
// match the contract (and does not retry it), and the strict check the contract tests rely on
// catches what zod alone lets through. Both directions against the real Worker:
// test/worker/runner-contract.test.ts.
import { describe, expect, it } from "vitest";
import { ClaimAnswer, CompleteRequest, HeartbeatAnswer } from "../../contract/runner-api";
import { ApiRequestError, ContractMismatchError, RunnerApi, type Transport } from "../../gpu-runner/api";
import { contractViolations } from "../support/contract-check";

/** A transport that answers every request with `body` (status 200) and counts the calls. */
function answering(body: unknown, status = 200) {
  const calls: Array<{ url: string; body: unknown }> = [];
  const transport: Transport = async (url, init) => {
    calls.push({ url, body: JSON.parse(String(init.body)) });
    return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  };
  return { calls, api: new RunnerApi("http://api.test", "hr_test", { attempts: 3, baseMs: 1, maxMs: 1 }, transport) };
}

const job = {
  id: "job_1", session: "sess_1", lease: { id: "lease_1", expires_at: 1_900_000_000 }, attempt: 1,
  source: { type: "upload", download_url: "https://api.test/media/x" }, options: { session_type: "5v5", court_type: "full", camera_setup: "fixed", has_jerseys: true, jerseys: "auto" }, rosters: null,
};

describe("the runner's client", () => {
  it("takes answers that match the contract and sends its requests to the contract's paths", async () => {
    const claim = answering({ job });
    expect(await claim.api.claim(5)).toEqual({ job });
    expect(claim.calls).toEqual([{ url: "http://api.test/runner/v1/jobs/claim", body: { wait_seconds: 5 } }]);
    const beat = answering({ lease_expires_at: 1_900_000_060, cancel: true });
    expect(await beat.api.heartbeat("job_1", "lease_1", { stage: "upload", percent: 90 })).toEqual({ lease_expires_at: 1_900_000_060, cancel: true });
    expect(beat.calls[0].url).toBe("http://api.test/runner/v1/jobs/job_1/heartbeat");
  });

  it("refuses an answer that drifted from the contract, once, naming the field", async () => {
    const renamed = answering({ lease_expires: 1_900_000_060, cancel: false });
    const err = await renamed.api.heartbeat("job_1", "lease_1", {}).catch((e) => e);
    expect(err).toBeInstanceOf(ContractMismatchError);
    expect(err).toBeInstanceOf(ApiRequestError); // so the loops treat it as a refusal, not an outage
    expect(err.message).toContain("lease_expires_at");
    expect(renamed.calls).toHaveLength(1);

    const brokenJob = answering({ job: { ...job, lease: { id: "lease_1", expires: 1 } } });
    await expect(brokenJob.api.claim(0)).rejects.toThrow(/job\.lease\.expires_at/);
    const wrongStatus = answering({ status: "done" });
    await expect(wrongStatus.api.release("job_1", "lease_1", "bye")).rejects.toBeInstanceOf(ContractMismatchError);
  });
});

describe("the strict contract check used by the tests", () => {
  it("reports keys zod would drop and values that do not parse", () => {
    expect(contractViolations(HeartbeatAnswer, { lease_expires_at: 1, cancel: false })).toEqual([]);
    expect(contractViolations(HeartbeatAnswer, { lease_expires_at: 1, cancel: false, progress: 3 })).toEqual(["progress: not in the contract"]);
    expect(contractViolations(ClaimAnswer, { job: { ...job, extra: { deep: 1 } } })).toEqual(["job.extra: not in the contract"]);
    const request = { lease_id: "l", result: { run_version: 1, video: { duration_seconds: 1, width: 2, height: 2, fps: 1 }, artifacts: {}, shots: [{ key: "s1", start: 3 }] } };
    expect(contractViolations(CompleteRequest, request)).toEqual(["result.shots[0].start: not in the contract"]);
    expect(contractViolations(CompleteRequest, { lease_id: "l" })[0]).toMatch(/^result: /);
  });
});
