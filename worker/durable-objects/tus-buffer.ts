// The tus rules of one upload target, as plain code: how bytes on their way into R2 are cut into
// parts, what offset a client may resume from, and which write is refused with which sentence.
// No storage, no R2, no clock: the UploadState Durable Object (upload-state.ts) holds the state
// and does the I/O; this file decides. Unit-tested on its own (test/worker/tus-buffer.test.ts).
import type { ErrorCode } from "../errors";
import {
  MAX_CHUNK_BYTES,
  MAX_SINGLE_PUT_BYTES,
  PART_SIZE,
  RECOMMENDED_CHUNK_BYTES,
  uploadMethodFor,
  type TusTargetSpec,
  type TusTargetState,
} from "../lib/tus";

export interface TusRefusal {
  code: ErrorCode;
  message: string;
}

/** SQLite rows are capped at 2 MB, so the buffered remainder is kept in 1 MiB rows. */
export const BUFFER_ROW_BYTES = 1024 * 1024;

const mib = (bytes: number) => `${bytes / 1024 / 1024} MiB (${bytes} bytes)`;

/** The first `length` bytes of a chunk list, as one array. */
export function concat(chunks: Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    if (at >= length) break;
    const piece = chunk.subarray(0, length - at);
    out.set(piece, at);
    at += piece.byteLength;
  }
  return out;
}

/** Drops the first `length` bytes from a chunk list in place. */
export function dropFront(chunks: Uint8Array[], length: number): void {
  let left = length;
  while (left > 0 && chunks.length > 0) {
    const head = chunks[0];
    if (head.byteLength <= left) {
      chunks.shift();
      left -= head.byteLength;
    } else {
      chunks[0] = head.subarray(left);
      left = 0;
    }
  }
}

/** Splits bytes into rows the object's SQLite storage accepts. */
export function bufferRows(bytes: Uint8Array, rowBytes: number = BUFFER_ROW_BYTES): Uint8Array[] {
  const rows: Uint8Array[] = [];
  for (let at = 0; at < bytes.byteLength; at += rowBytes) rows.push(bytes.slice(at, at + rowBytes));
  return rows;
}

/**
 * The bytes of one write that are in no R2 part yet: first the remainder already stored, then
 * what arrives. Whole parts are taken off the front as they fill; what is left at the end and
 * was not stored before is what the object must store (the durability rule: the offset counts
 * only bytes in an uploaded part or in storage).
 */
export class PartBuffer {
  private readonly chunks: Uint8Array[];
  private length: number;
  /** How many bytes at the front were already in storage (0 once a part took them). */
  private stored: number;

  constructor(storedRemainder: Uint8Array[], private readonly partSize: number = PART_SIZE) {
    this.chunks = [...storedRemainder];
    this.length = storedRemainder.reduce((n, c) => n + c.byteLength, 0);
    this.stored = this.length;
  }

  /** Bytes held, stored or not. */
  get bytes(): number {
    return this.length;
  }

  push(chunk: Uint8Array): void {
    this.chunks.push(chunk);
    this.length += chunk.byteLength;
  }

  /**
   * The next whole part, taken off the front, or null while less than a part is held. The caller
   * uploads it and, in the same storage transaction as recording the part, drops the stored
   * remainder (a part always begins with it).
   */
  takePart(): Uint8Array | null {
    if (this.length < this.partSize) return null;
    const part = concat(this.chunks, this.partSize);
    dropFront(this.chunks, this.partSize);
    this.length -= this.partSize;
    this.stored = 0;
    return part;
  }

  /** The bytes held that storage does not have yet. */
  unstoredTail(): Uint8Array {
    return concat(this.chunks, this.length).subarray(this.stored);
  }
}

/** The offset a client may resume from: bytes in uploaded parts plus the stored remainder. */
export function durableOffset(spec: Pick<TusTargetSpec, "size">, state: TusTargetState, partCount: number, bufferedBytes: number, partSize: number = PART_SIZE): number {
  if (state === "complete") return spec.size;
  return partCount * partSize + bufferedBytes;
}

/** Whether every byte of the file is durable, so the object can be assembled. */
export function allBytesLanded(spec: Pick<TusTargetSpec, "size">, partCount: number, bufferedBytes: number, partSize: number = PART_SIZE): boolean {
  return partCount * partSize + bufferedBytes === spec.size;
}

/**
 * Why no write may start on a target in this state, before the lock is looked at (a missing,
 * expired or terminated target), or null. `now` in Unix seconds.
 */
export function closedTargetRefusal(spec: TusTargetSpec | undefined, state: TusTargetState, now: number): TusRefusal | null {
  if (!spec) return { code: "resource_missing", message: "No such upload." };
  if (state === "expired" || (state === "pending" && now >= spec.expiresAt)) {
    return { code: "upload_expired", message: `This upload expired at ${new Date(spec.expiresAt * 1000).toISOString()}; reserve a new one.` };
  }
  if (state === "terminated") return { code: "resource_missing", message: "This upload was terminated." };
  return null;
}

export const LOCKED_REFUSAL: TusRefusal = {
  code: "upload_locked",
  message: "Another request is writing to this upload right now. Retry shortly (tus clients do so on their own).",
};

export function alreadyCompleteRefusal(spec: TusTargetSpec): TusRefusal {
  return { code: "upload_already_complete", message: `This upload is already complete (${spec.size} bytes); nothing was changed.` };
}

/** tus PATCH: the client's Upload-Offset must be the server's. */
export function offsetRefusal(clientOffset: number, serverOffset: number): TusRefusal | null {
  if (clientOffset === serverOffset) return null;
  return {
    code: "upload_offset_mismatch",
    message: `Upload-Offset is ${clientOffset} but the server has ${serverOffset} bytes of this upload. Send HEAD to learn the offset and resume from there.`,
  };
}

/** The most bytes one PATCH may add: what the file still lacks, and never more than a chunk. */
export function patchLimit(spec: Pick<TusTargetSpec, "size">, offset: number): number {
  return Math.min(spec.size - offset, MAX_CHUNK_BYTES);
}

/** A PATCH brought more than `patchLimit`; `room` is what the file lacked before it, `kept` the offset now. */
export function overflowRefusal(spec: Pick<TusTargetSpec, "size">, room: number, kept: number): TusRefusal {
  return room <= MAX_CHUNK_BYTES
    ? { code: "payload_too_large", message: `The body goes past Upload-Length (${spec.size} bytes); bytes up to offset ${kept} were kept.` }
    : { code: "payload_too_large", message: chunkTooLargeMessage(kept) };
}

export function chunkTooLargeMessage(offset: number): string {
  return `A PATCH may carry at most ${mib(MAX_CHUNK_BYTES)}. Send the rest from offset ${offset} in chunks of ${mib(RECOMMENDED_CHUNK_BYTES)}.`;
}

/** Single PUT: why the request cannot store the file, judged before a byte is read, or null. */
export function singlePutRefusal(spec: TusTargetSpec, request: { contentType: string | null; contentLength: number | null; hasBody: boolean }): TusRefusal | null {
  const essence = request.contentType?.split(";")[0].trim().toLowerCase() ?? null;
  if (essence !== spec.contentType) {
    return {
      code: "upload_content_type_mismatch",
      message: `Content-Type is ${request.contentType === null ? "missing" : `'${request.contentType}'`} but this upload was reserved as '${spec.contentType}'. Send the file with \`Content-Type: ${spec.contentType}\`.`,
    };
  }
  if (uploadMethodFor(spec.size) === "tus") {
    return {
      code: "payload_too_large",
      message: `This upload is ${spec.size} bytes; a single PUT takes at most ${MAX_SINGLE_PUT_BYTES} bytes. Send it with the tus protocol in chunks of ${mib(RECOMMENDED_CHUNK_BYTES)} (the upload CLI does).`,
    };
  }
  if (request.contentLength !== null && request.contentLength !== spec.size) {
    return { code: "upload_size_mismatch", message: `Content-Length is ${request.contentLength} but this upload was reserved for exactly ${spec.size} bytes. Nothing was stored.` };
  }
  if (!request.hasBody) return { code: "upload_size_mismatch", message: `The request has no body; this upload expects exactly ${spec.size} bytes. Nothing was stored.` };
  return null;
}

/** Single PUT: the body was not exactly the reserved size (`counted` bytes arrived before it ended or overran). */
export function singlePutSizeRefusal(spec: Pick<TusTargetSpec, "size">, counted: number): TusRefusal {
  return {
    code: "upload_size_mismatch",
    message: `The body ${counted > spec.size ? "is longer than" : `ended after ${counted} bytes, short of`} the ${spec.size} bytes reserved for this upload. Nothing was stored.`,
  };
}
