// What a "tus target" is — one file on its way into R2 (a customer's upload, a
// runner's output) — and the limits every part of the upload path applies:
// the UploadState Durable Object that serialises its writes, the service that
// creates and addresses targets (services/tus-targets.ts), the tus routes and
// the upload clients. Plain constants and types, below all of them.
import { MAX_VIDEO_BYTES } from "../../contract/runner-api";

export const TUS_VERSION = "1.0.0";
/** The tus extensions served. Creation happens through `POST /v1/uploads` (or `createTusTarget`), not tus `creation`. */
export const TUS_EXTENSIONS = ["termination", "expiration"] as const;
/** Largest file a target accepts: the spec's video limit, 10 GB (decimal, 10,000,000,000 bytes). */
export const MAX_UPLOAD_BYTES = MAX_VIDEO_BYTES;
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

/** How a client sends a file: one PUT of the whole file, or tus PATCHes of `RECOMMENDED_CHUNK_BYTES`. */
export const UPLOAD_METHODS = ["put", "tus"] as const;
export type UploadMethod = (typeof UPLOAD_METHODS)[number];

/**
 * The one put-or-tus rule: a single PUT up to the edge's request body limit, tus above it. The
 * upload answer (`upload_method`), the assistant tool's command and the single-PUT refusal all
 * follow it. tus works at every size; `put` is the simplest method that works.
 */
export function uploadMethodFor(size: number): UploadMethod {
  return size <= MAX_SINGLE_PUT_BYTES ? "put" : "tus";
}

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

/** A pending target past its expiry is expired even before its alarm has run. */
export function isExpired(status: TusTargetStatus, now: number): boolean {
  return status.state === "expired" || (status.state === "pending" && now >= status.expiresAt);
}
