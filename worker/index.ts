import { createApp } from "./app";
import type { Env } from "./env";
import { dispatchQueue, retryEverything } from "./queues";

export { IdempotencyKey } from "./durable-objects/idempotency-key";
export { RateLimiter } from "./durable-objects/rate-limiter";
export { UploadState } from "./durable-objects/upload-state";

const app = createApp();

const queue = dispatchQueue({
  jobs: retryEverything,
  jobsDeadLetter: retryEverything,
  webhooks: retryEverything,
  webhooksDeadLetter: retryEverything,
});

export default {
  fetch: app.fetch,
  queue,
  async scheduled(_controller: ScheduledController, _env: Env): Promise<void> {
    // Sweeps (job timeouts, upload expiry, webhook endpoint disabling) are added with their features.
  },
} satisfies ExportedHandler<Env>;
