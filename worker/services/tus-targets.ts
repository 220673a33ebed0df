// A "tus target" is one file on its way into R2: a customer's upload today,
// a GPU runner's output (renditions, clips, artifacts) later. Each target is
// served at a signed URL, `/uploads/v1/<id>?sig=…`, that speaks tus 1.0.0 and
// single PUT; its state lives in one UploadState Durable Object (named by the
// target id) and its bytes in an R2 multipart upload.
import { drizzle } from "drizzle-orm/d1";
import * as schema from "../../drizzle/schema";
import type { Env } from "../env";
import { signMessage, verifyMessage } from "../lib/signing";
import { syncUploadRow } from "./uploads";

export const TUS_VERSION = "1.0.0";
/** The tus extensions served. Creation happens through `POST /v1/uploads` (or `createTusTarget`), not tus `creation`. */
export const TUS_EXTENSIONS = ["termination", "expiration"] as const;
/** Largest file a target accepts: 10 GB (decimal, 10,000,000,000 bytes). */
export const MAX_UPLOAD_BYTES = 10_000_000_000;
/**
 * R2 multipart part size. R2 wants parts of at least 5 MiB, all equal but the
 * last; bytes that do not fill a part wait in the Durable Object's storage.
 * 5 MiB keeps that waiting remainder small; 10 GB fits in 1,908 parts (R2: 10,000).
 */
export const PART_SIZE = 5 * 1024 * 1024;
/**
 * Largest PATCH body accepted. Cloudflare refuses request bodies over 100 MB
 * (Free and Pro plans) with its own HTML page before the Worker runs, so the
 * limit sits below that and the error can name a chunk size that works.
 */
export const MAX_CHUNK_BYTES = 90 * 1024 * 1024;
/** The chunk size clients should use (see docs/uploads.md for the measurements behind it). */
export const RECOMMENDED_CHUNK_BYTES = 50 * 1024 * 1024;
/** Largest single PUT: Cloudflare's 100 MB request body limit (Free and Pro plans). */
export const MAX_SINGLE_PUT_BYTES = 100_000_000;

export type TusTargetKind = "customer_upload" | "runner_output";

export interface TusTargetSpec {
  /** Target id and Durable Object name: `up_…` for customer uploads. */
  id: string;
  kind: TusTargetKind;
  orgId: string;
  r2Key: string;
  /** Exact byte count the target accepts. */
  size: number;
  contentType: string;
  /** Unix seconds; unfinished targets are aborted then. */
  expiresAt: number;
  /** For runner outputs: the session the file belongs to. */
  sessionId?: string;
}

export type TusTargetState = "pending" | "complete" | "expired" | "terminated";

export interface TusTargetStatus {
  id: string;
  kind: TusTargetKind;
  r2Key: string;
  size: number;
  contentType: string;
  expiresAt: number;
  state: TusTargetState;
  /** Bytes durably received (equal to `size` once complete). */
  offset: number;
  completedAt: number | null;
}

export function tusTargetStub(env: Env, id: string) {
  return env.UPLOADS.get(env.UPLOADS.idFromName(id));
}

const signedMessage = (id: string) => `tus-target\n${id}`;

export async function signedUploadUrl(env: Env, baseUrl: string, id: string): Promise<string> {
  return `${baseUrl}/uploads/v1/${id}?sig=${await signMessage(env, signedMessage(id))}`;
}

export function verifyUploadSignature(env: Env, id: string, sig: string | undefined): Promise<boolean> {
  return verifyMessage(env, signedMessage(id), sig);
}

/**
 * Creates (idempotently) the target and returns its signed upload URL. This is
 * the entry point for other features that need a file sent into R2.
 */
export async function createTusTarget(env: Env, baseUrl: string, spec: TusTargetSpec): Promise<{ uploadUrl: string; status: TusTargetStatus }> {
  const status = await tusTargetStub(env, spec.id).init(spec);
  return { uploadUrl: await signedUploadUrl(env, baseUrl, spec.id), status };
}

/**
 * Mirrors a target's final state where the rest of the system looks for it.
 * Called by the Durable Object on every transition and retried from its alarm
 * until it succeeds, so D1 converges even if one write fails.
 */
export async function onTusTargetTransition(env: Env, spec: TusTargetSpec, state: Exclude<TusTargetState, "pending">, now: number): Promise<void> {
  if (spec.kind === "customer_upload") await syncUploadRow(drizzle(env.DB, { schema }), spec.id, state, now);
  // runner_output targets have no row of their own: completing a job checks
  // that every output it names exists in R2 (jobs.ts assertOutputsStored).
}

/** A pending target past its expiry is expired even before its alarm has run. */
export function isExpired(status: TusTargetStatus, now: number): boolean {
  return status.state === "expired" || (status.state === "pending" && now >= status.expiresAt);
}
