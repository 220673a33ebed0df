// One object per (organization, Idempotency-Key), named `${orgId}::${key}`.
// Svix/Stripe pattern: the first request stores a "started" record with the
// request's fingerprint and takes a short lock; duplicates that arrive while
// it runs see `in_progress`; a completed response is stored and replayed for
// 24 hours; a failed attempt (5xx) releases the lock but keeps its recovery
// points, so a retry resumes the work instead of repeating it. A DO handles
// one call at a time and every method here is synchronous over the SQLite KV
// API, so each check-and-set is atomic.
import { DurableObject } from "cloudflare:workers";

export const REPLAY_WINDOW_MS = 24 * 3600 * 1000;
/**
 * How long a started request owns the key. A request that dies without
 * releasing it (an isolate crash) frees the key after this, so a retry can
 * take over; submits finish in well under a second.
 */
export const LOCK_MS = 30_000;

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Recovery points of one request: ids chosen on the first attempt and the steps already done. */
export type Recovery = Record<string, string | number | boolean>;

interface IdempotencyRecord {
  fingerprint: string;
  createdMs: number;
  lockedUntilMs: number;
  recovery: Recovery;
  response: StoredResponse | null;
}

export type BeginResult =
  | { kind: "started"; recovery: Recovery }
  | { kind: "in_progress" }
  | { kind: "mismatch" }
  | { kind: "completed"; response: StoredResponse };

export class IdempotencyKey extends DurableObject {
  private read(nowMs: number): IdempotencyRecord | null {
    const record = (this.ctx.storage.kv.get<IdempotencyRecord>("record") ?? null) as IdempotencyRecord | null;
    // The alarm normally removes expired records; this covers a late alarm.
    if (record && nowMs - record.createdMs >= REPLAY_WINDOW_MS) {
      this.ctx.storage.kv.delete("record");
      return null;
    }
    return record;
  }

  private write(record: IdempotencyRecord): void {
    this.ctx.storage.kv.put("record", record);
  }

  /**
   * Claims the key for a request with `fingerprint`. `fresh` holds the
   * recovery points (pre-chosen ids) to keep when the key is new; a resumed
   * request gets the points stored by the earlier attempt instead.
   */
  async begin(fingerprint: string, fresh: Recovery, nowMs: number = Date.now()): Promise<BeginResult> {
    const record = this.read(nowMs);
    if (!record) {
      this.write({ fingerprint, createdMs: nowMs, lockedUntilMs: nowMs + LOCK_MS, recovery: fresh, response: null });
      await this.ctx.storage.setAlarm(nowMs + REPLAY_WINDOW_MS);
      return { kind: "started", recovery: fresh };
    }
    if (record.fingerprint !== fingerprint) return { kind: "mismatch" };
    if (record.response) return { kind: "completed", response: record.response };
    if (record.lockedUntilMs > nowMs) return { kind: "in_progress" };
    this.write({ ...record, lockedUntilMs: nowMs + LOCK_MS });
    return { kind: "started", recovery: record.recovery };
  }

  /** Records progress (merged into the recovery points). */
  checkpoint(points: Recovery): void {
    const record = this.read(Date.now());
    if (record) this.write({ ...record, recovery: { ...record.recovery, ...points } });
  }

  /** Stores the final response; from now on the key replays it. */
  complete(response: StoredResponse): void {
    const record = this.read(Date.now());
    if (record) this.write({ ...record, response, lockedUntilMs: 0 });
  }

  /** After a server-side failure: frees the key for a retry, keeping the recovery points. */
  release(): void {
    const record = this.read(Date.now());
    if (record && !record.response) this.write({ ...record, lockedUntilMs: 0 });
  }

  /** After a request error (4xx) that changed nothing: the key is as good as unused. */
  async forget(): Promise<void> {
    this.ctx.storage.kv.delete("record");
    await this.ctx.storage.deleteAlarm();
  }

  async alarm(): Promise<void> {
    this.ctx.storage.kv.delete("record");
  }
}
