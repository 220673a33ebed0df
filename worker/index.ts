import { createApp } from "./app";
import type { Env } from "./env";

export { IdempotencyKey } from "./durable-objects/idempotency-key";
export { RateLimiter } from "./durable-objects/rate-limiter";
export { UploadState } from "./durable-objects/upload-state";

const app = createApp();

export default {
  fetch: app.fetch,
  async queue(batch: MessageBatch<unknown>, _env: Env): Promise<void> {
    // Consumers are added with the job lifecycle and webhook work. Until then
    // nothing is produced, so retrying keeps any stray message rather than dropping it.
    batch.retryAll();
  },
  async scheduled(_controller: ScheduledController, _env: Env): Promise<void> {
    // Sweeps (job timeouts, upload expiry, webhook endpoint disabling) arrive with their features.
  },
} satisfies ExportedHandler<Env>;
