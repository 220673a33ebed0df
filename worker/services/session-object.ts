// The one place that turns stored rows into the public Session object. The
// API (single read, list items, submit), events and webhooks all call
// `buildSessionObjects`, so the shape cannot drift between them.
//
// Storage conventions it relies on (whoever writes results follows them):
// - `sessions.video`: `{url, preview_url, 1080p, 720p, 360p}` as R2 keys (or
//   null) plus `width`, `height`, `fps`; `sessions.artifacts`: `{actions,
//   balls, hoops, clusters}` as R2 keys; `highlights.video` / `.preview`: maps
//   of rendition → R2 key. Keys become signed URLs here, at read time.
// - `totals`, `players.stats`: BoxScore objects; missing fields read as 0.
// - Items are ordered by `position` within their session.
import { and, asc, eq, lte, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { highlights, players, sessions, shots } from "../../drizzle/schema";
import { BOX_SCORE_FIELDS, type BoxScore } from "../../contract/box-score";
import { ARTIFACT_KINDS, HIGHLIGHT_PREVIEWS, HIGHLIGHT_RENDITIONS, SESSION_ERROR_CODES, type SessionErrorCode } from "../../contract/runner-api";
import type { Database } from "../env";
import { listEnvelope } from "../lib/lists";
import { SESSION_VIDEO_URLS, type Highlight, type Player, type Session, type Shot } from "../schemas/sessions";
import { DEFAULT_SUBMIT_OPTIONS } from "../../contract/job-options";

export const EMBEDDED_LIMIT = 100;

export type SessionRow = typeof sessions.$inferSelect;
export type ShotRow = typeof shots.$inferSelect;
export type HighlightRow = typeof highlights.$inferSelect;
export type PlayerRow = typeof players.$inferSelect;

export interface SessionObjectContext {
  /** Turns a stored R2 key into a signed, expiring URL. */
  signUrl: (r2Key: string) => Promise<string>;
}

export function boxScore(stored: Record<string, number> | null | undefined): BoxScore {
  return Object.fromEntries(BOX_SCORE_FIELDS.map((f) => [f, Number(stored?.[f] ?? 0)])) as BoxScore;
}

async function signedMap<K extends string>(ctx: SessionObjectContext, keys: readonly K[], stored: Record<string, unknown> | null | undefined) {
  const values = await Promise.all(
    keys.map((k) => {
      const key = stored?.[k];
      return typeof key === "string" && key.length > 0 ? ctx.signUrl(key) : null;
    }),
  );
  return Object.fromEntries(keys.map((k, i) => [k, values[i]])) as Record<K, string | null>;
}

export function shotObject(row: ShotRow): Shot {
  const loc = row.location ?? {};
  return {
    id: row.id,
    object: "shot",
    index: row.shotIndex,
    start_seconds: row.startSeconds,
    end_seconds: row.endSeconds,
    made: row.made,
    points: row.points,
    type: row.type,
    is_three_point: row.isThreePoint,
    is_free_throw: row.isFreeThrow,
    is_fouled: row.isFouled,
    location: {
      shot_image_normed: loc.shot_image_normed ?? null,
      shot_world_normed: loc.shot_world_normed ?? null,
      hoop_image_normed: loc.hoop_image_normed ?? null,
    },
    excitement_score: row.excitementScore,
    players: { scorer: row.scorerId, assister: row.assisterId, rebounder: row.rebounderId },
    highlight: row.highlightId,
  };
}

export async function highlightObject(ctx: SessionObjectContext, row: HighlightRow): Promise<Highlight> {
  const [video, preview] = await Promise.all([signedMap(ctx, HIGHLIGHT_RENDITIONS, row.video), signedMap(ctx, HIGHLIGHT_PREVIEWS, row.preview)]);
  return {
    id: row.id,
    object: "highlight",
    shot: row.shotId,
    shot_index: row.shotIndex,
    length_seconds: row.lengthSeconds,
    is_lowlight: row.isLowlight,
    is_manual: row.isManual,
    player: row.playerId,
    video,
    preview,
    created: row.created,
  };
}

export function playerObject(row: PlayerRow): Player {
  return {
    id: row.id,
    object: "player",
    name: row.name,
    jersey: row.jersey,
    user_id: row.userId,
    team_id: row.teamId,
    metadata: row.metadata ?? {},
    stats: boxScore(row.stats),
  };
}

export const subListPath = (sessionId: string, kind: "highlights" | "shots" | "players") => `/v1/sessions/${sessionId}/${kind}`;

/**
 * The first EMBEDDED_LIMIT items of each listed session, with each session's
 * total, in one query: a window function ranks and counts the items of the
 * given sessions, and the join back on the primary key keeps drizzle's typed
 * column decoding.
 */
function firstItemsQuery<T extends typeof shots | typeof highlights | typeof players>(db: Database, table: T, idsJson: string) {
  const t = table as typeof shots; // the three tables share id/session_id/position
  const ranked = db
    .select({
      id: t.id,
      rank: sql<number>`row_number() over (partition by ${t.sessionId} order by ${t.position}, ${t.id})`.as("rank"),
      total: sql<number>`count(*) over (partition by ${t.sessionId})`.as("total"),
    })
    .from(t)
    .where(inJsonList(t.sessionId, idsJson))
    .as("ranked");
  return db
    .select({ item: table as typeof shots, total: ranked.total })
    .from(t)
    .innerJoin(ranked, eq(ranked.id, t.id))
    .where(lte(ranked.rank, EMBEDDED_LIMIT))
    .orderBy(asc(t.sessionId), asc(t.position), asc(t.id));
}

/** `col IN (ids)` with one bound parameter, whatever the number of ids (D1 caps parameters at 100). */
function inJsonList(col: SQLiteColumn, idsJson: string): SQL {
  return sql`${col} in (select value from json_each(${idsJson}))`;
}

function groupBySession<R>(rows: Array<{ item: { sessionId: string }; total: number }>) {
  const out = new Map<string, { items: R[]; total: number }>();
  for (const row of rows) {
    const entry = out.get(row.item.sessionId) ?? { items: [], total: Number(row.total) };
    entry.items.push(row.item as R);
    out.set(row.item.sessionId, entry);
  }
  return out;
}

function finite(value: unknown, as: (n: number) => number = (n) => n): number | null {
  return typeof value === "number" && Number.isFinite(value) ? as(value) : null;
}

/**
 * Full Session objects for `rows` (already scoped to one organization by the
 * caller), in the same order. Three item queries in one D1 round trip, however
 * many sessions and items.
 */
export async function buildSessionObjects(db: Database, ctx: SessionObjectContext, rows: SessionRow[]): Promise<Session[]> {
  if (rows.length === 0) return [];
  // Sessions that have not been processed have no items; skip the queries.
  const withItems = rows.filter((r) => r.status === "processed").map((r) => r.id);
  let shotMap = new Map<string, { items: ShotRow[]; total: number }>();
  let highlightMap = new Map<string, { items: HighlightRow[]; total: number }>();
  let playerMap = new Map<string, { items: PlayerRow[]; total: number }>();
  if (withItems.length > 0) {
    const idsJson = JSON.stringify(withItems);
    const [s, h, p] = await db.batch([
      firstItemsQuery(db, shots, idsJson),
      firstItemsQuery(db, highlights, idsJson),
      firstItemsQuery(db, players, idsJson),
    ]);
    shotMap = groupBySession<ShotRow>(s);
    highlightMap = groupBySession<HighlightRow>(h as never);
    playerMap = groupBySession<PlayerRow>(p as never);
  }
  return Promise.all(
    rows.map(async (row): Promise<Session> => {
      const processed = row.status === "processed";
      const sh = (processed && shotMap.get(row.id)) || { items: [], total: 0 };
      const hl = (processed && highlightMap.get(row.id)) || { items: [], total: 0 };
      const pl = (processed && playerMap.get(row.id)) || { items: [], total: 0 };
      const storedVideo = processed ? (row.video ?? {}) : {};
      const [highlightObjects, videoUrls, artifacts] = await Promise.all([
        Promise.all(hl.items.map((h) => highlightObject(ctx, h))),
        signedMap(ctx, SESSION_VIDEO_URLS, storedVideo),
        signedMap(ctx, ARTIFACT_KINDS, processed ? row.artifacts : null),
      ]);
      const errorCode: SessionErrorCode = (SESSION_ERROR_CODES as readonly string[]).includes(row.errorCode ?? "") ? (row.errorCode as SessionErrorCode) : "unknown";
      return {
        id: row.id,
        object: "session",
        created: row.created,
        status: row.status,
        group: row.groupId,
        source: { type: row.sourceType, url: row.sourceUrl, upload_id: row.uploadId },
        options: { ...DEFAULT_SUBMIT_OPTIONS, ...row.options } as Session["options"],
        metadata: row.metadata ?? {},
        run_version: row.runVersion,
        duration_seconds: row.durationSeconds,
        cost_cents: row.costCents,
        highlights: listEnvelope(highlightObjects, { hasMore: hl.total > hl.items.length, totalCount: hl.total, url: subListPath(row.id, "highlights") }),
        shots: listEnvelope(sh.items.map(shotObject), { hasMore: sh.total > sh.items.length, totalCount: sh.total, url: subListPath(row.id, "shots") }),
        players: listEnvelope(pl.items.map(playerObject), { hasMore: pl.total > pl.items.length, totalCount: pl.total, url: subListPath(row.id, "players") }),
        totals: boxScore(processed ? row.totals : null),
        video: {
          ...videoUrls,
          width: finite(storedVideo.width, Math.round),
          height: finite(storedVideo.height, Math.round),
          fps: finite(storedVideo.fps),
        } as Session["video"],
        artifacts: artifacts as Session["artifacts"],
        error: row.status === "failed" ? { code: errorCode, message: row.errorMessage ?? "The session failed." } : null,
      };
    }),
  );
}

/** One session of the organization, or null (another organization's id reads as missing). */
export async function findSessionRow(db: Database, orgId: string, id: string): Promise<SessionRow | null> {
  return (await db.select().from(sessions).where(and(eq(sessions.orgId, orgId), eq(sessions.id, id))).get()) ?? null;
}
