// Wires the job lifecycle (services/jobs.ts) to the ledger, events, the
// Session object builder and signed media URLs, for one request or batch.
import { and, eq, sql } from "drizzle-orm";
import { events, sessions } from "../../drizzle/schema";
import type { Env, Services } from "../env";
import { rechargeAfterSettle, rechargeIfDue } from "./auto-recharge";
import { raiseHold, settleHold, voidHold } from "./billing";
import { emitEvent } from "./events";
import { LEASE_SECONDS, type LifecycleDeps } from "./jobs";
import { signMediaUrl } from "./media-urls";
import { paymentProviderFrom } from "./payments";
import { buildSessionObjects } from "./session-object";
import { signedObjectContext } from "./session-reads";

/** Runner downloads can take hours on slow links; the URL outlives the lease. */
const DOWNLOAD_URL_SECONDS = 24 * 3600;

/** JOB_LEASE_SECONDS sets another lease length, 3 s to 1 h (tests and demos shorten it). */
function leaseSecondsFrom(value: string | undefined): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 3 && n <= 3600 ? n : LEASE_SECONDS;
}

/**
 * Origin for signed URLs made outside a request (queue consumers, cron).
 * Those paths only touch sessions without media, but a production deployment
 * should set PUBLIC_BASE_URL anyway (see README, Deploying).
 */
export function backgroundBaseUrl(env: Env): string {
  return env.PUBLIC_BASE_URL ?? "https://public-base-url-not-configured.invalid";
}

export function lifecycleDeps(services: Services, baseUrl: string): LifecycleDeps {
  const { db, env, now } = services;
  return {
    db,
    env,
    now,
    leaseSeconds: leaseSecondsFrom(env.JOB_LEASE_SECONDS),
    raiseHold: (sessionId, seconds) => raiseHold(db, sessionId, seconds, now()),
    settleHold: async (sessionId, seconds) => {
      const at = now();
      const settled = await settleHold(db, sessionId, seconds, at);
      // A separate step: the ledger does not know about payments (services/auto-recharge.ts).
      await rechargeAfterSettle(db, paymentProviderFrom(env), settled, at);
    },
    rechargeIfDue: (orgId) => rechargeIfDue(db, paymentProviderFrom(env), orgId, now()),
    voidHold: async (sessionId) => {
      await voidHold(db, sessionId, now());
    },
    signedDownloadUrl: (r2Key) => signMediaUrl(env, baseUrl, r2Key, { expiresInSeconds: DOWNLOAD_URL_SECONDS, now: now() }),
    emitSessionEvent: async (sessionId, type) => {
      const row = await db.select().from(sessions).where(eq(sessions.id, sessionId)).get();
      if (!row) return;
      // A repeated report re-runs this step; one event per session and type.
      const already = await db
        .select({ id: events.id })
        .from(events)
        .where(and(eq(events.orgId, row.orgId), eq(events.type, type), sql`json_extract(${events.data}, '$.object.id') = ${sessionId}`))
        .get();
      if (already) return;
      const [object] = await buildSessionObjects(db, signedObjectContext(env, baseUrl, now()), [row]);
      await emitEvent(services, { orgId: row.orgId, type, object });
    },
  };
}
