import { createApp } from "./app";
import type { Env } from "./env";
import { buildServices } from "./middleware/services";
import { dispatchQueue } from "./queues";
import { consumeJobs, consumeJobsDeadLetter } from "./queues/jobs";
import { sweepJobs } from "./services/jobs";
import { backgroundBaseUrl, lifecycleDeps } from "./services/lifecycle";
import { consumeWebhooks, consumeWebhooksDeadLetter } from "./queues/webhooks";
import { expireStaleUploads } from "./services/uploads";
import { disableFailingEndpoints } from "./services/webhooks";

export { IdempotencyKey } from "./durable-objects/idempotency-key";
export { RateLimiter } from "./durable-objects/rate-limiter";
export { UploadState } from "./durable-objects/upload-state";

const app = createApp();

const queue = dispatchQueue({
  jobs: consumeJobs,
  jobsDeadLetter: consumeJobsDeadLetter,
  webhooks: consumeWebhooks,
  webhooksDeadLetter: consumeWebhooksDeadLetter,
});

export default {
  fetch: app.fetch,
  queue,
  async scheduled(controller: ScheduledController, env: Env): Promise<void> {
    const services = buildServices(env, () => Math.floor(controller.scheduledTime / 1000));
    // Each sweep is independent: one failing must not stop the others.
    const results = await Promise.allSettled([
      sweepJobs(lifecycleDeps(services, backgroundBaseUrl(env))),
      expireStaleUploads(services, services.now()),
      disableFailingEndpoints(services, services.now()),
    ]);
    for (const r of results) if (r.status === "rejected") console.error(JSON.stringify({ level: "error", msg: "sweep failed", error: String(r.reason) }));
  },
} satisfies ExportedHandler<Env>;
