// Jobs as submit and the queue consumer leave them: shared by the job lifecycle
// tests and the runner contract tests.
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../worker/index";
import { newId } from "../../worker/ids";
import * as schema from "../../drizzle/schema";
import type { TestOrg } from "./helpers";
import { db } from "./session-fixtures";

/** What POST /v1/sessions leaves behind for an upload source: session, hold, pending job. */
export async function seedUploadSession(org: TestOrg, opts: { bytes?: Uint8Array; heldCents?: number } = {}) {
  const now = Math.floor(Date.now() / 1000);
  const uploadId = newId("up");
  const sessionId = newId("sess");
  const jobId = newId("job");
  const bytes = opts.bytes ?? new TextEncoder().encode("not really a video, but bytes");
  const r2Key = `uploads/${uploadId}`;
  await env.MEDIA.put(r2Key, bytes);
  await db.batch([
    db.insert(schema.uploads).values({ id: uploadId, orgId: org.orgId, size: bytes.byteLength, contentType: "video/mp4", status: "complete", r2Key, expiresAt: now + 604800, completedAt: now }),
    db.insert(schema.sessions).values({ id: sessionId, orgId: org.orgId, groupId: org.groupId, apiKeyId: org.keyId, status: "queued", sourceType: "upload", uploadId, metadata: { game: "final" }, options: { session_type: "5v5" } }),
    db.insert(schema.usageEvents).values({ id: newId("ue"), orgId: org.orgId, sessionId, apiKeyId: org.keyId, status: "held", heldCents: opts.heldCents ?? 1000, estimatedSeconds: 7200 }),
    db.insert(schema.jobs).values({ id: jobId, sessionId, orgId: org.orgId, status: "pending" }),
  ]);
  return { sessionId, jobId, uploadId, r2Key };
}

export async function runQueue(queue: string, bodies: unknown[], attempts = 1) {
  const batch = createMessageBatch(queue, bodies.map((body, i) => ({ id: `m${i}`, timestamp: new Date(), attempts, body })));
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  return getQueueResult(batch, ctx);
}

export async function prepare(seed: { sessionId: string; jobId: string }) {
  return runQueue("hoops-jobs-staging", [{ type: "prepare", session_id: seed.sessionId, job_id: seed.jobId }]);
}
