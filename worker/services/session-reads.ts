// Reads of sessions and of their item lists, scoped to one organization.
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { highlights, players, sessions, shots } from "../../drizzle/schema";
import type { Database, Env } from "../env";
import { notFound } from "../errors";
import { cursorWhere, unknownCursor } from "../lib/cursor";
import { listEnvelope, takePage, type ListEnvelope } from "../lib/lists";
import type { Highlight, Player, Session, Shot } from "../schemas/sessions";
import { publicBaseUrl, signMediaUrl } from "./media-urls";
import {
  buildSessionObjects,
  findSessionRow,
  highlightObject,
  playerObject,
  shotObject,
  subListPath,
  type SessionObjectContext,
} from "./session-object";

/** Lifetime of the signed media URLs inside API answers (at least; see below). */
export const MEDIA_URL_SECONDS = 7 * 24 * 3600;
/** Expiries are rounded up to this boundary. */
const MEDIA_URL_EXPIRY_STEP = 3600;

/**
 * Signs media keys for an answer to a request made at `requestUrl`. The
 * expiry is rounded up to the hour, so every read within the same hour (and
 * the webhook event emitted then) carries byte-identical URLs: a receiver can
 * compare the event's session with `GET /v1/sessions/{id}`, and caches work.
 */
export function signedObjectContext(env: Env, requestUrl: string, now: number): SessionObjectContext {
  const baseUrl = publicBaseUrl(env, requestUrl);
  const exp = Math.ceil((now + MEDIA_URL_SECONDS) / MEDIA_URL_EXPIRY_STEP) * MEDIA_URL_EXPIRY_STEP;
  return { signUrl: (key) => signMediaUrl(env, baseUrl, key, { expiresInSeconds: exp - now, now }) };
}

export async function getSession(db: Database, ctx: SessionObjectContext, orgId: string, id: string): Promise<Session> {
  const row = await findSessionRow(db, orgId, id);
  if (!row) throw notFound("session", id);
  const [session] = await buildSessionObjects(db, ctx, [row]);
  return session;
}

export interface SessionFilter {
  status?: Session["status"];
  groupId?: string;
}

/** Newest first (`created`, then id), after the session `startingAfter` when given. */
export async function listSessions(
  db: Database,
  ctx: SessionObjectContext,
  orgId: string,
  filter: SessionFilter,
  page: { limit: number; startingAfter?: string },
): Promise<ListEnvelope<Session>> {
  let cursor: { created: number; id: string } | undefined;
  if (page.startingAfter !== undefined) {
    const after = await findSessionRow(db, orgId, page.startingAfter);
    if (!after) throw unknownCursor("session", page.startingAfter);
    cursor = { created: after.created, id: after.id };
  }
  const where = and(
    eq(sessions.orgId, orgId),
    filter.status ? eq(sessions.status, filter.status) : undefined,
    filter.groupId ? eq(sessions.groupId, filter.groupId) : undefined,
  );
  const [rows, count] = await db.batch([
    db
      .select()
      .from(sessions)
      .where(and(where, cursor ? cursorWhere(sessions.created, sessions.id, cursor) : undefined))
      .orderBy(desc(sessions.created), desc(sessions.id))
      .limit(page.limit + 1),
    db.select({ n: sql<number>`count(*)` }).from(sessions).where(where),
  ]);
  const { data, hasMore } = takePage(rows, page.limit);
  return listEnvelope(await buildSessionObjects(db, ctx, data), { hasMore, totalCount: Number(count[0]?.n ?? 0) });
}

type ItemKind = "highlights" | "shots" | "players";

/**
 * One offset page of a session's highlights, shots or players: the full set
 * that the session embeds the first 100 of. Sessions that are not processed
 * list nothing, as their embedded lists do.
 */
export async function listSessionItems(
  db: Database,
  ctx: SessionObjectContext,
  orgId: string,
  sessionId: string,
  kind: "highlights",
  page: { limit: number; offset: number },
): Promise<ListEnvelope<Highlight>>;
export async function listSessionItems(
  db: Database,
  ctx: SessionObjectContext,
  orgId: string,
  sessionId: string,
  kind: "shots",
  page: { limit: number; offset: number },
): Promise<ListEnvelope<Shot>>;
export async function listSessionItems(
  db: Database,
  ctx: SessionObjectContext,
  orgId: string,
  sessionId: string,
  kind: "players",
  page: { limit: number; offset: number },
): Promise<ListEnvelope<Player>>;
export async function listSessionItems(
  db: Database,
  ctx: SessionObjectContext,
  orgId: string,
  sessionId: string,
  kind: ItemKind,
  page: { limit: number; offset: number },
): Promise<ListEnvelope<Highlight | Shot | Player>> {
  const row = await findSessionRow(db, orgId, sessionId);
  if (!row) throw notFound("session", sessionId);
  const url = subListPath(sessionId, kind);
  if (row.status !== "processed") return listEnvelope([], { hasMore: false, totalCount: 0, url });
  const table = { highlights, shots, players }[kind] as typeof shots;
  const scope = and(eq(table.orgId, orgId), eq(table.sessionId, sessionId));
  const [items, count] = await db.batch([
    db.select().from(table).where(scope).orderBy(asc(table.position), asc(table.id)).limit(page.limit).offset(page.offset),
    db.select({ n: sql<number>`count(*)` }).from(table).where(scope),
  ]);
  const totalCount = Number(count[0]?.n ?? 0);
  const data =
    kind === "highlights"
      ? await Promise.all((items as unknown as (typeof highlights.$inferSelect)[]).map((h) => highlightObject(ctx, h)))
      : kind === "shots"
        ? items.map(shotObject)
        : (items as unknown as (typeof players.$inferSelect)[]).map(playerObject);
  return listEnvelope<Highlight | Shot | Player>(data, { hasMore: page.offset + items.length < totalCount, totalCount, url });
}
