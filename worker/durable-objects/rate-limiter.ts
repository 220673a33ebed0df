// One Durable Object per API key. It sees every request of that key, so it is
// both the exact 60-per-minute counter (a DO handles one call at a time, so
// concurrent requests cannot overshoot) and the authority on revocation: the
// per-isolate key cache in middleware/auth.ts stays safe because a revoked key
// is refused here on its very next request.
import { DurableObject } from "cloudflare:workers";

export const RATE_LIMIT_PER_MINUTE = 60;
const WINDOW_MS = 60_000;

export interface RateDecision {
  allowed: boolean;
  revoked: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (at least 1). */
  resetSeconds: number;
}

export class RateLimiter extends DurableObject {
  private windowStartMs = 0;
  private count = 0;
  private revoked = false;

  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env as never);
    // The synchronous KV API of SQLite-backed objects: state survives eviction
    // without making each hit wait on an async storage round trip.
    this.windowStartMs = (ctx.storage.kv.get<number>("windowStartMs") ?? 0) as number;
    this.count = (ctx.storage.kv.get<number>("count") ?? 0) as number;
    this.revoked = (ctx.storage.kv.get<boolean>("revoked") ?? false) as boolean;
  }

  hit(limit: number = RATE_LIMIT_PER_MINUTE, nowMs: number = Date.now()): RateDecision {
    if (this.revoked) return { allowed: false, revoked: true, limit, remaining: 0, resetSeconds: 0 };
    if (nowMs - this.windowStartMs >= WINDOW_MS) {
      this.windowStartMs = nowMs;
      this.count = 0;
      this.ctx.storage.kv.put("windowStartMs", this.windowStartMs);
    }
    const resetSeconds = Math.max(1, Math.ceil((this.windowStartMs + WINDOW_MS - nowMs) / 1000));
    if (this.count >= limit) {
      return { allowed: false, revoked: false, limit, remaining: 0, resetSeconds };
    }
    this.count += 1;
    this.ctx.storage.kv.put("count", this.count);
    return { allowed: true, revoked: false, limit, remaining: limit - this.count, resetSeconds };
  }

  revoke(): void {
    this.revoked = true;
    this.ctx.storage.kv.put("revoked", true);
  }
}
