// What the session hub page shows, loaded for one session by id: the share link's signature
// has already proved the caller may see it. Items come from the same builders as the API's
// objects (shotObject, playerObject), so the page and the API cannot disagree; media become signed
// URLs that live as long as the link (and at least a few hours, so a video started just before
// the link expires keeps playing).
import { asc, eq } from "drizzle-orm";
import { highlights, jobs, players, sessions, shots } from "../../drizzle/schema";
import type { Database, Env } from "../env";
import { BOX_SCORE_FIELDS, type BoxScore } from "../../contract/box-score";
import type { CourtFoundBy, CourtTypeId } from "../../contract/court-types";
import type { Player, Shot } from "../schemas/sessions";
import { signMediaUrl } from "./media-urls";
import { boxScore, playerObject, shotObject, type SessionRow } from "./session-object";

/** More items than any game has; a cap so a corrupt session cannot make an endless page. */
export const HUB_ITEM_LIMIT = 2000;
/** Media URLs on the page outlive the link by at least this much (a game is watched in one go). */
const MEDIA_GRACE_SECONDS = 6 * 3600;
const MEDIA_MAX_SECONDS = 7 * 24 * 3600;

export interface HubClip {
  highlightId: string;
  shotId: string;
  url: string;
  preview: string | null;
  lengthSeconds: number;
}

export interface HubTeam {
  /** `team_id` of the players, or null for players without a team. */
  id: number | null;
  name: string;
  players: Player[];
  totals: BoxScore;
}

export interface HubRendition {
  label: string;
  url: string;
}

/**
 * The court the shot chart is drawn as: the type the placed shots were measured on (the most
 * common, should a session hold several), and how it was found; null when no shot has a court
 * position (the court was not registered). `foundBy` is null for shots placed by a runner that did
 * not report its court yet (those positions are on the FIBA court of the painted-key path).
 */
export interface HubCourt {
  type: CourtTypeId;
  foundBy: CourtFoundBy | null;
}

export interface HubView {
  session: SessionRow;
  title: string;
  progress: { stage: string | null; percent: number | null } | null;
  /** Game video renditions, preferred first (720p plays well on phones and desktops alike). */
  renditions: HubRendition[];
  poster: string | null;
  shots: Shot[];
  players: Player[];
  clips: Map<string, HubClip>;
  teams: HubTeam[];
  court: HubCourt | null;
  /** Points and attempts of shots credited to nobody: the game totals minus every player's. */
  unattributed: BoxScore;
  totals: BoxScore;
}

export async function findSessionById(db: Database, id: string): Promise<SessionRow | null> {
  return (await db.select().from(sessions).where(eq(sessions.id, id)).get()) ?? null;
}

function sumBoxScores(scores: BoxScore[]): BoxScore {
  const out = boxScore(null);
  for (const s of scores) for (const f of BOX_SCORE_FIELDS) out[f] += s[f];
  return out;
}

interface StoredRoster {
  team?: number;
  name?: string;
}

function teamName(teamId: number | null, rosters: unknown, side: { onlyTeam: boolean; solo: boolean }): string {
  const named = Array.isArray(rosters) ? (rosters as StoredRoster[]).find((r) => r?.team === teamId && typeof r.name === "string" && r.name) : undefined;
  if (named?.name) return named.name;
  if (teamId === null) return "No team";
  // Without rosters, team 0 is the lighter shirt colour (docs/analysis.md, teams); with rosters the
  // ids are the caller's, so only the number can be shown.
  const noRoster = !Array.isArray(rosters) || rosters.length === 0;
  // One side seen (a lone shooter, a drill): no "Light shirts" that implies an opponent nobody saw;
  // a solo session (the submit said so) is one shooter, not a team.
  if (noRoster && side.onlyTeam) return side.solo ? "Solo session" : "One team";
  if (noRoster) return teamId === 0 ? "Light shirts" : teamId === 1 ? "Dark shirts" : `Team ${teamId}`;
  return `Team ${teamId}`;
}

/** The court of the placed shots (their stored `court`; the API's Shot has no field for it, docs/hub.md). */
export function chartCourt(rows: Array<{ location: Record<string, number[] | null> | null; court: { type: CourtTypeId; found_by: CourtFoundBy } | null }>): HubCourt | null {
  const counts = new Map<string, { court: HubCourt; n: number }>();
  for (const row of rows) {
    if (!Array.isArray(row.location?.shot_world_normed)) continue;
    const court: HubCourt = row.court ? { type: row.court.type, foundBy: row.court.found_by } : { type: "fiba", foundBy: null };
    const key = `${court.type}/${court.foundBy}`;
    const seen = counts.get(key) ?? { court, n: 0 };
    seen.n++;
    counts.set(key, seen);
  }
  let best: { court: HubCourt; n: number } | null = null;
  for (const c of counts.values()) if (!best || c.n > best.n) best = c;
  return best?.court ?? null;
}

export function sessionTitle(row: SessionRow): string {
  const m = row.metadata ?? {};
  return m.title || m.name || m.game || "Game";
}

export async function loadHubView(db: Database, env: Env, row: SessionRow, opts: { baseUrl: string; linkExpires: number; now: number }): Promise<HubView> {
  const view: HubView = {
    session: row,
    title: sessionTitle(row),
    progress: null,
    renditions: [],
    poster: null,
    shots: [],
    players: [],
    clips: new Map(),
    teams: [],
    court: null,
    unattributed: boxScore(null),
    totals: boxScore(null),
  };
  if (row.status === "queued" || row.status === "processing") {
    const job = await db.select({ stage: jobs.progressStage, percent: jobs.progressPercent }).from(jobs).where(eq(jobs.sessionId, row.id)).get();
    view.progress = { stage: job?.stage ?? null, percent: job?.percent ?? null };
    return view;
  }
  if (row.status !== "processed") return view;

  const mediaSeconds = Math.min(MEDIA_MAX_SECONDS, Math.max(opts.linkExpires - opts.now, MEDIA_GRACE_SECONDS));
  // Rounded up to the hour: reloads within the hour reuse the browser's cached media.
  const mediaExp = Math.ceil((opts.now + mediaSeconds) / 3600) * 3600;
  const sign = (key: string) => signMediaUrl(env, opts.baseUrl, key, { expiresInSeconds: mediaExp - opts.now, now: opts.now });

  const [shotRows, highlightRows, playerRows] = await db.batch([
    db.select().from(shots).where(eq(shots.sessionId, row.id)).orderBy(asc(shots.position), asc(shots.id)).limit(HUB_ITEM_LIMIT),
    db.select().from(highlights).where(eq(highlights.sessionId, row.id)).orderBy(asc(highlights.position), asc(highlights.id)).limit(HUB_ITEM_LIMIT),
    db.select().from(players).where(eq(players.sessionId, row.id)).orderBy(asc(players.position), asc(players.id)).limit(HUB_ITEM_LIMIT),
  ]);
  view.shots = shotRows.map(shotObject);
  view.court = chartCourt(shotRows);
  view.players = playerRows.map(playerObject);

  const video = row.video ?? {};
  const stored = (k: string) => (typeof video[k] === "string" && video[k] ? (video[k] as string) : null);
  const candidates: Array<[string, string | null]> = [
    ["720p", stored("720p")],
    ["1080p", stored("1080p")],
    ["360p", stored("360p")],
    ["Original", stored("url")],
  ];
  view.renditions = await Promise.all(candidates.filter(([, key]) => key !== null).map(async ([label, key]) => ({ label, url: await sign(key!) })));
  const posterKey = stored("preview_url");
  view.poster = posterKey ? await sign(posterKey) : null;

  // The landscape cut suits a page (the vertical `default` is made for phones' full screen).
  await Promise.all(
    highlightRows.map(async (h) => {
      const key = h.video.horizontal || h.video.default || h.video["720p"] || null;
      if (!key) return;
      const previewKey = h.preview.horizontal || h.preview.default || null;
      const [url, preview] = await Promise.all([sign(key), previewKey ? sign(previewKey) : Promise.resolve(null)]);
      view.clips.set(h.shotId, { highlightId: h.id, shotId: h.shotId, url, preview, lengthSeconds: h.lengthSeconds });
    }),
  );

  const teamIds = [...new Set(view.players.map((p) => p.team_id))].sort((a, b) => (a ?? 99) - (b ?? 99));
  const onlyTeam = teamIds.filter((id) => id !== null).length === 1;
  view.teams = teamIds.map((id) => {
    const members = view.players.filter((p) => p.team_id === id);
    return { id, name: teamName(id, row.rosters, { onlyTeam, solo: row.options?.session_type === "solo" }), players: members, totals: sumBoxScores(members.map((p) => p.stats)) };
  });
  view.totals = boxScore(row.totals);
  const credited = sumBoxScores(view.players.map((p) => p.stats));
  view.unattributed = Object.fromEntries(BOX_SCORE_FIELDS.map((f) => [f, Math.max(0, view.totals[f] - credited[f])])) as BoxScore;
  return view;
}
