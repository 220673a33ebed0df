// Reporting a finished result: an API outage must not turn finished work into a failed session.
import { describe, expect, it } from "vitest";
import { ApiRequestError, LeaseLostError, type ClaimedJob } from "../../gpu-runner/api";
import { CompletionNotReported, reportCompletion } from "../../gpu-runner/job";
import type { JobResultInput } from "../../contract/runner-api";

const job = { id: "job_1", lease: { id: "lease_1", expires_at: 0 } } as ClaimedJob;
const quiet = { warn: () => {} };
const result: JobResultInput = {
  run_version: 0,
  video: { duration_seconds: 10, width: 1280, height: 720, fps: 30 },
  artifacts: { actions: null, balls: null, hoops: null, clusters: null },
};

/** An API whose complete() answers with each of `outcomes` in turn (an Error is thrown). */
function apiAnswering(outcomes: Array<Error | "ok">) {
  const calls: unknown[] = [];
  return {
    calls,
    async complete(_job: string, _lease: string, result: unknown) {
      calls.push(result);
      const next = outcomes[Math.min(calls.length - 1, outcomes.length - 1)];
      if (next !== "ok") throw next;
      return { status: "processed" as const };
    },
  };
}

describe("reportCompletion", () => {
  it("keeps trying through 5xx answers and network errors until the API takes the result", async () => {
    const api = apiAnswering([new ApiRequestError("HTTP 503", 503), new TypeError("fetch failed"), "ok"]);
    await reportCompletion(api, job, result, quiet, new AbortController().signal, 10_000, 1);
    expect(api.calls).toHaveLength(3);
  });

  it("does not retry a refusal", async () => {
    const invalid = apiAnswering([new ApiRequestError("HTTP 400 parameter_invalid", 400, "parameter_invalid")]);
    await expect(reportCompletion(invalid, job, result, quiet, new AbortController().signal, 10_000, 1)).rejects.toBeInstanceOf(ApiRequestError);
    expect(invalid.calls).toHaveLength(1);
    const lost = apiAnswering([new LeaseLostError("lease_lost")]);
    await expect(reportCompletion(lost, job, result, quiet, new AbortController().signal, 10_000, 1)).rejects.toBeInstanceOf(LeaseLostError);
  });

  it("gives up after its patience with an error that makes the loop hand the job back", async () => {
    const down = apiAnswering([new ApiRequestError("HTTP 502", 502)]);
    await expect(reportCompletion(down, job, result, quiet, new AbortController().signal, 30, 5)).rejects.toBeInstanceOf(CompletionNotReported);
    expect(down.calls.length).toBeGreaterThan(1);
  });

  it("stops when the job is cancelled", async () => {
    const down = apiAnswering([new ApiRequestError("HTTP 503", 503)]);
    const controller = new AbortController();
    setTimeout(() => controller.abort("shutdown"), 20);
    await expect(reportCompletion(down, job, result, quiet, controller.signal, 60_000, 5)).rejects.toBeInstanceOf(ApiRequestError);
  });
});
