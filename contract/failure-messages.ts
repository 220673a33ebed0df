// The customer's sentence for each way a session fails (`error.message` beside `error.code`).
// One table for both sides: the runner reports these sentences (gpu-runner/job.ts), and the
// Worker falls back to them when what a runner reported looks internal
// (worker/services/failure-messages.ts). A sentence never names a file path, tool or host.
import { MAX_VIDEO_LONG_SIDE, MAX_VIDEO_SHORT_SIDE, type SessionErrorCode } from "./runner-api";

export const FAILURE_MESSAGES: Record<SessionErrorCode, string> = {
  no_shots: "No shot attempts were found in the video. Check that it shows a basketball game with shots at a hoop.",
  no_hoops: "No basketball hoop was found in the video. The camera must keep at least one hoop in view.",
  no_court: "The court could not be located in the video. The camera must show the painted key around a hoop.",
  video_too_large: `The video is over the limits: at most 10 GB and ${MAX_VIDEO_LONG_SIDE}×${MAX_VIDEO_SHORT_SIDE} in either orientation.`,
  source_invalid: "The video could not be decoded: the file may be damaged, or not an MP4 or MOV video.",
  source_unavailable: "The source could not be downloaded. Check that the link is public and has not expired, then submit again.",
  timeout: "Processing did not finish within 24 hours; nothing was charged.",
  unknown: "Processing failed unexpectedly; nothing was charged. Quote the session id to support.",
};

/** The sentence for a video over the resolution limit, naming its size. */
export function resolutionTooLargeMessage(width: number, height: number): string {
  return `The video is ${width}×${height}; the limit is ${MAX_VIDEO_LONG_SIDE}×${MAX_VIDEO_SHORT_SIDE} in either orientation.`;
}

/**
 * The sentence for a session stopped after the runner measured it, because the balance cannot cover
 * the measured cost (code `unknown`: the spec's session codes have none for credit; docs/sessions.md,
 * "The measured step"). `availableCents` is what this session could have used: the organization's
 * available balance plus the session's own hold.
 */
export function measuredCostNotCoveredMessage(measuredSeconds: number, neededCents: number, availableCents: number): string {
  const count = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  return `The video is ${count(measuredSeconds, "second")} long, which costs ${count(neededCents, "cent")}, but only ${count(Math.max(0, availableCents), "cent")} of credit was available. Nothing was charged; add credit, then submit the video again.`;
}
