// One consumer per queue, dispatched by queue name. Names carry the
// environment suffix (`hoops-jobs-staging`, `hoops-jobs-prod`), so match on
// the stem; dead-letter queues are checked first because their names extend
// the main queue's.
import type { Env } from "../env";

export type QueueConsumer = (batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext) => Promise<void>;

export interface QueueConsumers {
  jobs: QueueConsumer;
  jobsDeadLetter: QueueConsumer;
  webhooks: QueueConsumer;
  webhooksDeadLetter: QueueConsumer;
}

export function queueKind(queueName: string): keyof QueueConsumers | null {
  if (queueName.startsWith("hoops-jobs-dlq")) return "jobsDeadLetter";
  if (queueName.startsWith("hoops-jobs")) return "jobs";
  if (queueName.startsWith("hoops-webhooks-dlq")) return "webhooksDeadLetter";
  if (queueName.startsWith("hoops-webhooks")) return "webhooks";
  return null;
}

/** Until a consumer exists for a queue, its messages are retried, never dropped. */
export const retryEverything: QueueConsumer = async (batch) => batch.retryAll();

export function dispatchQueue(consumers: QueueConsumers): QueueConsumer {
  return async (batch, env, ctx) => {
    const kind = queueKind(batch.queue);
    if (!kind) {
      console.error(JSON.stringify({ level: "error", msg: "message from an unknown queue", queue: batch.queue }));
      batch.retryAll();
      return;
    }
    await consumers[kind](batch, env, ctx);
  };
}
