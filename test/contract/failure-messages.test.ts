// One table of customer failure sentences (contract/failure-messages.ts), used by the runner when
// the analysis gives up and by the Worker when what a runner reported looks internal.
import { describe, expect, it } from "vitest";
import { FAILURE_MESSAGES } from "../../contract/failure-messages";
import { SESSION_ERROR_CODES } from "../../contract/runner-api";
import { AnalysisError, type AnalysisErrorCode } from "../../gpu-runner/analysis/pipeline";
import { analysisFailure } from "../../gpu-runner/job";
import { customerFailureMessage } from "../../worker/services/failure-messages";

describe("customer failure sentences", () => {
  it("the Worker falls back to the contract's sentence for every code", () => {
    for (const code of SESSION_ERROR_CODES) expect(customerFailureMessage(code, "ffprobe failed: /srv/jobs/x/source.video")).toBe(FAILURE_MESSAGES[code]);
  });

  it("the runner reports the same sentence when the analysis gives up, and logs the analysis's own words only", () => {
    const codes: AnalysisErrorCode[] = ["no_shots", "no_hoops", "no_court", "source_invalid", "unknown"];
    for (const code of codes) {
      const failure = analysisFailure(new AnalysisError(code, "internal words"));
      expect([failure.code, failure.message, failure.detail]).toEqual([code, FAILURE_MESSAGES[code], "internal words"]);
    }
  });

  it("the sentences that had drifted apart are the ones both sides now give", () => {
    expect(FAILURE_MESSAGES.video_too_large).toContain("1920×1080");
    expect(FAILURE_MESSAGES.video_too_large).toContain("10 GB");
    expect(FAILURE_MESSAGES.timeout).toContain("24 hours");
    expect(FAILURE_MESSAGES.source_invalid).toContain("MP4 or MOV");
  });
});
