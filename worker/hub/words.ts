// How the hub page says things: clock times, shot descriptions, progress stages and failures in
// words a coach or a parent understands, each failure with what to do next.
import { COURT_TEMPLATES } from "../../contract/court-types";
import type { Player, Shot } from "../schemas/sessions";
import type { HubCourt } from "../services/hub";

/** `m:ss` (or `h:mm:ss`) of a position in the video. */
export function clock(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return "–:––";
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

export function utcDate(unixSeconds: number): string {
  return `${new Date(unixSeconds * 1000).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

export type ShotKind = "ft" | "3" | "2" | "fg";

export function shotKind(shot: Shot): ShotKind {
  if (shot.is_free_throw) return "ft";
  if (shot.is_three_point === true) return "3";
  if (shot.is_three_point === false) return "2";
  return "fg";
}

export const KIND_WORDS: Record<ShotKind, string> = { ft: "Free throw", "3": "3-pointer", "2": "2-pointer", fg: "Field goal" };

export function resultWord(shot: Shot): string {
  return shot.made === true ? "made" : shot.made === false ? "missed" : "result unknown";
}

export function playerName(player: Player | undefined): string {
  if (!player) return "Unknown player";
  if (player.name) return player.jersey ? `${player.name} (#${player.jersey})` : player.name;
  return player.jersey ? `#${player.jersey}` : "Unnamed player";
}

/** One line that says everything about a shot: used for labels, tooltips and the detail box. */
export function describeShot(shot: Shot, players: Map<string, Player>): string {
  const scorer = shot.players.scorer ? playerName(players.get(shot.players.scorer)) : "scorer not identified";
  const points = shot.points ?? 0;
  return `${clock(shot.start_seconds)} · ${KIND_WORDS[shotKind(shot)]}, ${resultWord(shot)} · ${points} ${points === 1 ? "point" : "points"} · ${scorer}${shot.is_fouled ? " · and-one" : ""}`;
}

const COURT_FOUND_WORDS = { lines: "registered from the court's painted lines", painted_key: "found from the painted key" } as const;

/** Which court the shot chart is drawn as and how it was found, or that no court was registered. */
export function courtWords(court: HubCourt | null): string {
  if (!court) return "Court not registered — shots are listed beside the chart";
  const label = COURT_TEMPLATES[court.type].label;
  return court.foundBy ? `Court: ${label} (${COURT_FOUND_WORDS[court.foundBy]})` : `Court: ${label}`;
}

/** The runner's progress stages (gpu-runner/job.ts) in words. */
const STAGE_WORDS: Record<string, string> = {
  claimed: "Starting",
  download: "Downloading the video",
  probe: "Checking the video",
  analyze: "Finding shots and players",
  highlights: "Cutting highlight clips",
  renditions: "Preparing the video for playback",
  upload: "Saving the results",
  complete: "Finishing",
  done: "Finishing",
  released: "Waiting for a free analysis machine",
  requeued: "Waiting for a free analysis machine",
};

export function stageWords(stage: string | null): string {
  return (stage && STAGE_WORDS[stage]) || "Waiting for a free analysis machine";
}

/** Every `error.code` of a failed session: what happened, and what to do next. */
export const FAILURE_WORDS: Record<string, { what: string; next: string }> = {
  no_shots: {
    what: "We watched the whole video but found no shot at a hoop.",
    next: "Check that the video shows game play with the hoop in view, then submit it again. If the shots are plainly visible, contact support with the session id below.",
  },
  no_hoops: {
    what: "We could not find a hoop in the video.",
    next: "Film from a spot where at least one hoop stays in view most of the time (a tripod behind the baseline or high on the side works best), then submit again.",
  },
  no_court: {
    what: "We could not find the court markings (the painted key) needed to place shots on the court.",
    next: "Make sure the painted key under the hoop is in view, then submit again. Courts without a painted key are not supported yet.",
  },
  video_too_large: {
    what: "The video is larger than we accept: more than 1080p or more than 10 GB.",
    next: "Export the video at 1080p or lower and under 10 GB, then submit it again. Nothing was charged.",
  },
  source_invalid: {
    what: "The file or link is not a video we can read.",
    next: "Check that the link opens an MP4 or MOV file (or a public match page of a supported camera platform), then submit again.",
  },
  source_unavailable: {
    what: "We could not download the video from its link.",
    next: "Make sure the link is public and still works (open it in a private browser window), then submit again.",
  },
  timeout: {
    what: "Processing did not finish within 24 hours and was stopped.",
    next: "Submit the video again. If it happens twice, contact support with the session id below.",
  },
  unknown: {
    what: "Something went wrong on our side while processing this video.",
    next: "Submit the video again. If it keeps failing, contact support with the session id below.",
  },
};
