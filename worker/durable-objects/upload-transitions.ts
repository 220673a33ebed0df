// What an UploadState writes outside itself when its target reaches a final
// state: the customer upload's D1 row, which session submit reads. The Durable
// Object calls it on every transition and retries it from its alarm until it
// succeeds, so D1 converges even if one write fails.
import { and, eq } from "drizzle-orm";
import { uploads } from "../../drizzle/schema";
import { openDatabase, type Database } from "../lib/database";
import type { TusTargetSpec, TusTargetState } from "../lib/tus";

const ROW_STATUS = { complete: "complete", expired: "expired", terminated: "deleted" } as const;

/** Moves a pending upload row to its final state; a row already final is left alone. */
export async function syncUploadRow(db: Database, uploadId: string, state: Exclude<TusTargetState, "pending">, now: number): Promise<void> {
  await db
    .update(uploads)
    .set({ status: ROW_STATUS[state], ...(state === "complete" ? { completedAt: now } : {}) })
    .where(and(eq(uploads.id, uploadId), eq(uploads.status, "pending")));
}

/** Mirrors a target's final state where the rest of the system looks for it. */
export async function onTusTargetTransition(d1: D1Database, spec: TusTargetSpec, state: Exclude<TusTargetState, "pending">, now: number): Promise<void> {
  if (spec.kind === "customer_upload") await syncUploadRow(openDatabase(d1), spec.id, state, now);
  // runner_output targets have no row of their own: completing a job checks
  // that every output it names exists in R2 (jobs.ts assertOutputsStored).
}
