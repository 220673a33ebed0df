// Customer uploads: the `uploads` row in D1 (what session submit checks) and
// the tus target that receives the bytes (see tus-targets.ts).
import { and, eq, lte } from "drizzle-orm";
import { uploads } from "../../drizzle/schema";
import type { Services } from "../env";
import { syncUploadRow } from "../durable-objects/upload-transitions";
import { newId } from "../ids";
import { RECOMMENDED_CHUNK_BYTES, uploadMethodFor, type UploadMethod } from "../lib/tus";
import { UPLOAD_LIFETIME_SECONDS, type UploadContentType } from "../schemas/uploads";
import { createTusTarget, tusTargetStub } from "./tus-targets";

export interface UploadResource {
  id: string;
  object: "upload";
  upload_url: string;
  content_type: string;
  size: number;
  /** `put` or `tus`, from the size (lib/tus.ts `uploadMethodFor`). */
  upload_method: UploadMethod;
  /** Bytes per tus PATCH. */
  chunk_size: number;
  expires_in_seconds: number;
}

export function uploadR2Key(orgId: string, uploadId: string): string {
  return `uploads/${orgId}/${uploadId}`;
}

export async function createUpload(
  services: Services,
  orgId: string,
  input: { size: number; content_type: UploadContentType; filename?: string },
  baseUrl: string,
): Promise<UploadResource> {
  const now = services.now();
  const id = newId("up");
  const r2Key = uploadR2Key(orgId, id);
  const expiresAt = now + UPLOAD_LIFETIME_SECONDS;
  // The target first: if the row insert then fails, an orphan target expires
  // on its own, whereas a row without a target would be an upload nobody can finish.
  const { uploadUrl } = await createTusTarget(services.env, baseUrl, {
    id,
    kind: "customer_upload",
    orgId,
    r2Key,
    size: input.size,
    contentType: input.content_type,
    expiresAt,
  });
  await services.db.insert(uploads).values({
    id,
    orgId,
    size: input.size,
    contentType: input.content_type,
    filename: input.filename ?? null,
    status: "pending",
    r2Key,
    created: now,
    expiresAt,
  });
  return {
    id,
    object: "upload",
    upload_url: uploadUrl,
    content_type: input.content_type,
    size: input.size,
    upload_method: uploadMethodFor(input.size),
    chunk_size: RECOMMENDED_CHUNK_BYTES,
    expires_in_seconds: UPLOAD_LIFETIME_SECONDS,
  };
}

/**
 * Backstop for the upload Durable Objects' own expiry alarms, run by the cron:
 * every upload still pending past its expiry is expired (multipart aborted,
 * row marked `expired`). An upload that did complete but whose row missed the
 * update is marked `complete` instead. Returns the ids it expired.
 */
export async function expireStaleUploads(services: Services, now: number, limit = 100): Promise<string[]> {
  const stale = await services.db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(eq(uploads.status, "pending"), lte(uploads.expiresAt, now)))
    .limit(limit);
  const expired: string[] = [];
  for (const { id } of stale) {
    const status = await tusTargetStub(services.env, id).expire(now);
    if (status === null) {
      // No target behind the row (it never got one): nothing to abort.
      await syncUploadRow(services.db, id, "expired", now);
      expired.push(id);
    } else if (status.state === "expired") {
      expired.push(id);
    }
  }
  return expired;
}
