// One object per tus target (name = target id). It is the single place that
// serialises writes to a file on its way into R2: the tus offset, the R2
// multipart upload and its parts, the bytes that do not yet fill a part, and
// the target's state (pending → complete | expired | terminated).
//
// Durability rule: the offset it reports counts only bytes that are either in
// an uploaded R2 part or in this object's storage, so a client that resumes
// from HEAD never skips a byte, whatever was evicted or cut off in between.
//
// The rules themselves (cutting parts, the offset, which write is refused and why) are plain code
// in tus-buffer.ts; this class holds the state and does the storage and R2 calls.
import { DurableObject } from "cloudflare:workers";
import type { ErrorCode } from "../errors";
import { type TusTargetSpec, type TusTargetState, type TusTargetStatus } from "../lib/tus";
import { discardBody } from "../lib/request-body";
import {
  allBytesLanded,
  alreadyCompleteRefusal,
  bufferRows,
  closedTargetRefusal,
  concat,
  durableOffset,
  LOCKED_REFUSAL,
  offsetRefusal,
  overflowRefusal,
  PartBuffer,
  patchLimit,
  singlePutRefusal,
  singlePutSizeRefusal,
  type TusRefusal,
} from "./tus-buffer";
import { onTusTargetTransition } from "./upload-transitions";

/**
 * The bindings this object uses. Declared here rather than taken from env.ts, which names this
 * class for its namespace's type: the dependency points one way (env.ts → here).
 */
export interface UploadStateBindings {
  DB: D1Database;
  MEDIA: R2Bucket;
}

export type UploadOutcome =
  | { ok: true; status: TusTargetStatus }
  | { ok: false; code: ErrorCode; message: string; status: TusTargetStatus | null };

interface Progress {
  state: TusTargetState;
  multipartUploadId: string | null;
  completedAt: number | null;
  /** Whether the last transition reached D1 (see onTusTargetTransition). */
  synced: boolean;
}

/** A writer that has delivered no bytes for this long loses its lock to the next request. */
const STALLED_WRITER_MS = 30_000;
const HOOK_RETRY_MS = 60_000;

const nowSeconds = () => Math.floor(Date.now() / 1000);

export class UploadState extends DurableObject<UploadStateBindings> {
  /** The request currently writing bytes; others get 423 until it ends. */
  private writer: { reader: ReadableStreamDefaultReader<Uint8Array> | null; lastProgressMs: number } | null = null;

  constructor(ctx: DurableObjectState, env: UploadStateBindings) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS parts (part_number INTEGER PRIMARY KEY, etag TEXT NOT NULL)");
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS buffer (seq INTEGER PRIMARY KEY AUTOINCREMENT, data BLOB NOT NULL)");
  }

  // ------------------------------------------------------------ state

  private get spec(): TusTargetSpec | undefined {
    return this.ctx.storage.kv.get<TusTargetSpec>("spec");
  }

  private get progress(): Progress {
    return this.ctx.storage.kv.get<Progress>("progress") ?? { state: "pending", multipartUploadId: null, completedAt: null, synced: true };
  }

  private set progress(value: Progress) {
    this.ctx.storage.kv.put("progress", value);
  }

  private partCount(): number {
    return this.ctx.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM parts").one().n;
  }

  private bufferedBytes(): number {
    return this.ctx.storage.sql.exec<{ n: number }>("SELECT COALESCE(SUM(length(data)), 0) AS n FROM buffer").one().n;
  }

  private readBuffer(): Uint8Array[] {
    return this.ctx.storage.sql.exec<{ data: ArrayBuffer }>("SELECT data FROM buffer ORDER BY seq").toArray().map((r) => new Uint8Array(r.data));
  }

  private appendBuffer(bytes: Uint8Array): void {
    for (const row of bufferRows(bytes)) this.ctx.storage.sql.exec("INSERT INTO buffer (data) VALUES (?)", row.buffer);
  }

  private offset(spec: TusTargetSpec): number {
    return durableOffset(spec, this.progress.state, this.partCount(), this.bufferedBytes());
  }

  private snapshot(spec: TusTargetSpec): TusTargetStatus {
    const { state, completedAt } = this.progress;
    return {
      id: spec.id,
      kind: spec.kind,
      r2Key: spec.r2Key,
      size: spec.size,
      contentType: spec.contentType,
      expiresAt: spec.expiresAt,
      state,
      offset: this.offset(spec),
      completedAt,
    };
  }

  private fail({ code, message }: TusRefusal): UploadOutcome {
    const spec = this.spec;
    return { ok: false, code, message, status: spec ? this.snapshot(spec) : null };
  }

  // ------------------------------------------------------------ RPC

  /** Creates the target; a second call with the same id returns the existing one. */
  async init(spec: TusTargetSpec): Promise<TusTargetStatus> {
    const existing = this.spec;
    if (existing) return this.snapshot(existing);
    this.ctx.storage.kv.put("spec", spec);
    this.progress = { state: "pending", multipartUploadId: null, completedAt: null, synced: true };
    await this.ctx.storage.setAlarm(spec.expiresAt * 1000);
    return this.snapshot(spec);
  }

  async status(): Promise<TusTargetStatus | null> {
    const spec = this.spec;
    if (!spec) return null;
    await this.finishIfAllBytesLanded(spec);
    return this.snapshot(spec);
  }

  /** tus PATCH: appends `body` at `offset`. */
  async append(offset: number, body: ReadableStream<Uint8Array> | null): Promise<UploadOutcome> {
    return this.finishingBody(body, () => this.appendBody(offset, body));
  }

  private async appendBody(offset: number, body: ReadableStream<Uint8Array> | null): Promise<UploadOutcome> {
    const refusal = await this.acquire();
    if (refusal) return refusal;
    const spec = this.spec!;
    const current = this.offset(spec);
    const room = spec.size - current;
    let overflow = false;
    try {
      const mismatch = offsetRefusal(offset, current);
      if (mismatch) return this.fail(mismatch);
      if (!body) return { ok: true, status: this.snapshot(spec) };
      const limit = patchLimit(spec, current);
      const reader = body.getReader();
      this.writer!.reader = reader;
      const pending = new PartBuffer(this.readBuffer());
      let received = 0;
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch {
          break; // The client went away: keep every byte that arrived (tus asks servers to).
        }
        if (chunk.done) break;
        if (received + chunk.value.byteLength > limit) {
          overflow = true; // the rest is read and dropped before the refusal (finishingBody)
          break;
        }
        received += chunk.value.byteLength;
        pending.push(chunk.value);
        this.writer!.lastProgressMs = Date.now();
        for (let part = pending.takePart(); part; part = pending.takePart()) await this.uploadPart(spec, part);
      }
      this.appendBuffer(pending.unstoredTail());
    } finally {
      // Unlocked for finishingBody, which reads what a refusal (or a failed part) left behind.
      this.writer?.reader?.releaseLock();
      this.release();
    }
    if (overflow) {
      // The bytes kept may be all of them (the extra came after the last byte of the file): finish
      // the upload now rather than leave it pending until someone asks for its state.
      await this.finishIfAllBytesLanded(spec);
      return this.fail(overflowRefusal(spec, room, this.offset(spec)));
    }
    await this.finishIfAllBytesLanded(spec);
    return { ok: true, status: this.snapshot(spec) };
  }

  /** Single PUT: the whole file in one request, stored only if exactly `size` bytes of the reserved type arrive. */
  async replace(body: ReadableStream<Uint8Array> | null, request: { contentType: string | null; contentLength: number | null }): Promise<UploadOutcome> {
    return this.finishingBody(body, () => this.replaceWith(body, request));
  }

  /**
   * Runs a write and, unless it succeeded, reads the rest of its request body before answering:
   * the body was handed over by the Worker, so only this object can (lib/request-body.ts says why).
   * The writes leave the body unlocked whatever happens, for this to read.
   */
  private async finishingBody(body: ReadableStream<Uint8Array> | null, write: () => Promise<UploadOutcome>): Promise<UploadOutcome> {
    let outcome: UploadOutcome;
    try {
      outcome = await write();
    } catch (err) {
      await discardBody(body);
      throw err;
    }
    if (!outcome.ok) await discardBody(body);
    return outcome;
  }

  private async replaceWith(body: ReadableStream<Uint8Array> | null, request: { contentType: string | null; contentLength: number | null }): Promise<UploadOutcome> {
    const refusal = await this.acquire();
    if (refusal) return refusal;
    const spec = this.spec!;
    try {
      const refusal = singlePutRefusal(spec, { ...request, hasBody: body !== null });
      if (refusal || !body) return this.fail(refusal!);

      // FixedLengthStream makes R2 refuse the object unless exactly `size` bytes arrive, so a
      // short or long body leaves nothing half-stored.
      const fixed = new FixedLengthStream(spec.size);
      const stored = this.env.MEDIA.put(spec.r2Key, fixed.readable, { httpMetadata: { contentType: spec.contentType } });
      const sink = fixed.writable.getWriter();
      const reader = body.getReader();
      this.writer!.reader = reader;
      let counted = 0;
      let whole = false;
      try {
        for (;;) {
          let chunk: ReadableStreamReadResult<Uint8Array>;
          try {
            chunk = await reader.read();
          } catch {
            break; // The client went away.
          }
          if (chunk.done) {
            whole = counted === spec.size;
            break;
          }
          counted += chunk.value.byteLength;
          // Longer than reserved: stop here; finishingBody reads the rest before the refusal.
          if (counted > spec.size) break;
          this.writer!.lastProgressMs = Date.now();
          await sink.write(chunk.value);
        }
      } catch (err) {
        // R2 failed while the bytes were streaming in.
        await sink.abort(err).catch(() => {});
        await stored.catch(() => {});
        throw err;
      } finally {
        reader.releaseLock();
      }
      if (!whole) {
        await sink.abort(new Error("upload_size_mismatch")).catch(() => {});
        await stored.catch(() => {});
        return this.fail(singlePutSizeRefusal(spec, counted));
      }
      await sink.close();
      await stored;
      // The PUT supersedes any earlier, partial tus attempt.
      await this.settle(spec, "complete", this.progress.multipartUploadId);
      return { ok: true, status: this.snapshot(spec) };
    } finally {
      this.release();
    }
  }

  /** tus termination. Completed files are kept: they may already back a session. */
  async terminate(): Promise<UploadOutcome> {
    const refusal = await this.acquire();
    if (refusal) return refusal;
    const spec = this.spec!;
    try {
      await this.settle(spec, "terminated", this.progress.multipartUploadId);
      return { ok: true, status: this.snapshot(spec) };
    } finally {
      this.release();
    }
  }

  /**
   * Expires the target now unless it is complete or being written to (the
   * caller decides that its time is up; a busy target is left for the next
   * sweep or alarm). Also re-runs a transition hook that failed earlier.
   */
  async expire(now: number = nowSeconds()): Promise<TusTargetStatus | null> {
    const spec = this.spec;
    if (!spec) return null;
    await this.finishIfAllBytesLanded(spec);
    const progress = this.progress;
    if (progress.state === "pending" && !this.writer) {
      this.lock();
      try {
        await this.settle(spec, "expired", this.progress.multipartUploadId, now);
      } finally {
        this.release();
      }
    } else if (progress.state !== "pending" && !progress.synced) {
      await this.runHook(spec, now);
    }
    return this.snapshot(spec);
  }

  async alarm(): Promise<void> {
    const spec = this.spec;
    if (!spec) return;
    const now = nowSeconds();
    if (this.progress.state === "pending" && now >= spec.expiresAt && this.writer) {
      await this.ctx.storage.setAlarm(Date.now() + STALLED_WRITER_MS); // let the last write finish first
      return;
    }
    if (this.progress.state === "pending" && now < spec.expiresAt) {
      await this.ctx.storage.setAlarm(spec.expiresAt * 1000);
      return;
    }
    await this.expire(now);
  }

  // ------------------------------------------------------------ internals

  private lock(): void {
    this.writer = { reader: null, lastProgressMs: Date.now() };
  }

  private release(): void {
    this.writer = null;
  }

  /**
   * Takes the write lock, or says why a write must not start. Every caller
   * that gets null holds the lock and must release() it.
   */
  private async acquire(): Promise<UploadOutcome | null> {
    const spec = this.spec;
    const closed = closedTargetRefusal(spec, this.progress.state, nowSeconds());
    if (closed || !spec) return this.fail(closed!);
    await this.finishIfAllBytesLanded(spec);
    if (this.writer) {
      // A writer whose client vanished without closing the connection would
      // otherwise hold the lock until the runtime times it out.
      if (Date.now() - this.writer.lastProgressMs > STALLED_WRITER_MS) await this.writer.reader?.cancel().catch(() => {});
      return this.fail(LOCKED_REFUSAL);
    }
    if (this.progress.state === "complete") return this.fail(alreadyCompleteRefusal(spec));
    this.lock();
    return null;
  }

  private async uploadPart(spec: TusTargetSpec, bytes: Uint8Array): Promise<void> {
    let { multipartUploadId } = this.progress;
    if (!multipartUploadId) {
      const created = await this.env.MEDIA.createMultipartUpload(spec.r2Key, { httpMetadata: { contentType: spec.contentType } });
      multipartUploadId = created.uploadId;
      this.progress = { ...this.progress, multipartUploadId };
    }
    const partNumber = this.partCount() + 1;
    const part = await this.env.MEDIA.resumeMultipartUpload(spec.r2Key, multipartUploadId).uploadPart(partNumber, bytes);
    this.ctx.storage.transactionSync(() => {
      this.ctx.storage.sql.exec("INSERT INTO parts (part_number, etag) VALUES (?, ?)", part.partNumber, part.etag);
      this.ctx.storage.sql.exec("DELETE FROM buffer");
    });
  }

  /**
   * Completes the R2 object once every byte is durable. If R2 fails midway the
   * next call retries, so an offset equal to the size always ends in a
   * finished object.
   */
  private async finishIfAllBytesLanded(spec: TusTargetSpec): Promise<void> {
    if (this.progress.state !== "pending" || this.writer) return;
    if (!allBytesLanded(spec, this.partCount(), this.bufferedBytes())) return;
    this.lock();
    try {
      // An earlier attempt may have completed the object and been cut off before recording it.
      const existing = await this.env.MEDIA.head(spec.r2Key);
      const leftover = existing?.size === spec.size ? null : await this.assembleObject(spec);
      await this.settle(spec, "complete", leftover);
    } finally {
      this.release();
    }
  }

  /** Writes the object from the recorded parts and the buffered tail; returns a multipart upload left to abort. */
  private async assembleObject(spec: TusTargetSpec): Promise<string | null> {
    const parts = this.ctx.storage.sql.exec<{ part_number: number; etag: string }>("SELECT part_number, etag FROM parts ORDER BY part_number").toArray();
    const remainder = this.readBuffer();
    const tail = concat(remainder, remainder.reduce((n, c) => n + c.byteLength, 0));
    const { multipartUploadId } = this.progress;
    if (parts.length === 0 || !multipartUploadId) {
      // Smaller than one part: a plain put (R2 multipart needs no part for it).
      await this.env.MEDIA.put(spec.r2Key, tail, { httpMetadata: { contentType: spec.contentType } });
      return multipartUploadId;
    }
    const multipart = this.env.MEDIA.resumeMultipartUpload(spec.r2Key, multipartUploadId);
    const uploaded = parts.map((p) => ({ partNumber: p.part_number, etag: p.etag }));
    if (tail.byteLength > 0) uploaded.push(await multipart.uploadPart(parts.length + 1, tail));
    await multipart.complete(uploaded);
    return null;
  }

  /**
   * Records a final state and drops the working data in one storage
   * transaction (no reader ever sees a pending target whose offset went back
   * to 0), aborts a leftover multipart upload, then runs the hook.
   */
  private async settle(spec: TusTargetSpec, state: Exclude<TusTargetState, "pending">, abortMultipartId: string | null, now: number = nowSeconds()): Promise<void> {
    this.ctx.storage.transactionSync(() => {
      this.ctx.storage.sql.exec("DELETE FROM parts");
      this.ctx.storage.sql.exec("DELETE FROM buffer");
      this.progress = { state, multipartUploadId: null, completedAt: state === "complete" ? now : null, synced: false };
    });
    if (abortMultipartId) {
      try {
        await this.env.MEDIA.resumeMultipartUpload(spec.r2Key, abortMultipartId).abort();
      } catch (err) {
        // The state is final either way; R2 drops incomplete multipart uploads after 7 days by default.
        console.error(JSON.stringify({ level: "error", msg: "aborting a multipart upload failed", target: spec.id, error: String(err) }));
      }
    }
    await this.runHook(spec, now);
  }

  private async runHook(spec: TusTargetSpec, now: number): Promise<void> {
    const { state } = this.progress;
    if (state === "pending") return;
    try {
      await onTusTargetTransition(this.env.DB, spec, state, now);
      this.progress = { ...this.progress, synced: true };
    } catch (err) {
      console.error(JSON.stringify({ level: "error", msg: "tus target transition hook failed; retrying from the alarm", target: spec.id, error: String(err) }));
      await this.ctx.storage.setAlarm(Date.now() + HOOK_RETRY_MS);
    }
  }
}
