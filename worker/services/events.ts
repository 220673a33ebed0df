// Events: the stored record of what happened to an organization's sessions,
// listed by GET /v1/events and delivered to its webhook endpoints. Emitting
// stores the event first, then asks the webhooks queue to fan it out, so an
// event that could not be delivered can still be caught up on.
import { and, desc, eq, gte, lte, sql } from "drizzle-orm";
import { events } from "../../drizzle/schema";
import type { Database, Env } from "../env";
import { newId } from "../ids";
import { cursorWhere, unknownCursor } from "../lib/cursor";
import type { WebhookMessage } from "./webhooks";

export const EVENT_TYPES = ["session.processed", "session.failed"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface EventObject {
  id: string;
  object: "event";
  type: string;
  created: number;
  data: { object: Record<string, unknown> };
}

export interface EmitDeps {
  db: Database;
  env: Pick<Env, "WEBHOOKS_QUEUE">;
  now: () => number;
}

type EventRow = typeof events.$inferSelect;

export function eventObject(row: EventRow): EventObject {
  // Only objects are ever stored (emitEvent takes an object).
  return { id: row.id, object: "event", type: row.type, created: row.created, data: { object: row.data.object as Record<string, unknown> } };
}

/**
 * Stores an event for `orgId` and queues its delivery to every enabled
 * endpoint; throws (with nothing stored) when it could not be queued. `object` is the full resource as it is now (for session events,
 * the Session object exactly as GET /v1/sessions/{id} returns it). Services
 * from `c.get("services")` or `buildServices(env)` satisfy `deps`.
 */
export async function emitEvent(deps: EmitDeps, input: { orgId: string; type: EventType; object: object }): Promise<EventObject> {
  const row = await deps.db
    .insert(events)
    .values({ id: newId("evt"), orgId: input.orgId, type: input.type, created: deps.now(), data: { object: input.object } })
    .returning()
    .get();
  try {
    await deps.env.WEBHOOKS_QUEUE.send({ kind: "fanout", event_id: row.id } satisfies WebhookMessage);
  } catch (err) {
    // Undo the insert so that the caller's retry emits the event afresh
    // instead of finding it stored but never queued for delivery.
    await deps.db.delete(events).where(eq(events.id, row.id));
    throw err;
  }
  return eventObject(row);
}

export interface EventFilters {
  limit: number;
  startingAfter?: string;
  type?: string;
  createdGte?: number;
  createdLte?: number;
}

export async function listEvents(db: Database, orgId: string, filters: EventFilters) {
  const matching = and(
    eq(events.orgId, orgId),
    filters.type !== undefined ? eq(events.type, filters.type) : undefined,
    filters.createdGte !== undefined ? gte(events.created, filters.createdGte) : undefined,
    filters.createdLte !== undefined ? lte(events.created, filters.createdLte) : undefined,
  );
  let after;
  if (filters.startingAfter) {
    const cursor = await db
      .select({ created: events.created, id: events.id })
      .from(events)
      .where(and(eq(events.orgId, orgId), eq(events.id, filters.startingAfter)))
      .get();
    if (!cursor) throw unknownCursor("event", filters.startingAfter);
    after = cursorWhere(events.created, events.id, cursor);
  }
  const [rows, total] = await db.batch([
    db
      .select()
      .from(events)
      .where(and(matching, after))
      .orderBy(desc(events.created), desc(events.id))
      .limit(filters.limit + 1),
    db.select({ n: sql<number>`count(*)` }).from(events).where(matching),
  ]);
  return { rows, totalCount: Number(total[0]?.n ?? 0) };
}
