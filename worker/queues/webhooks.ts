// Consumer of the webhooks queue. Two kinds of message (see WebhookMessage):
// `fanout` turns one stored event into one `deliver` message per enabled
// endpoint of its organization; `deliver` makes one signed attempt and, when
// it fails, retries the same message with the spec's delay.
//
// Attempt numbers and due times live in `webhook_deliveries`, not in the
// message, because a queue message cannot be edited between retries. That
// also lets a delay longer than the queue allows be chained: a message that
// arrives before its attempt is due is retried for the remainder, without
// sending anything.
import { and, eq, isNull } from "drizzle-orm";
import { events, webhookEndpoints } from "../../drizzle/schema";
import type { Env } from "../env";
import { buildServices } from "../middleware/services";
import { eventObject } from "../services/events";
import {
  lastAttemptQuery,
  MAX_ATTEMPTS,
  MAX_QUEUE_DELAY_SECONDS,
  recordAttempt,
  RETRY_DELAYS_SECONDS,
  sendToEndpoint,
  updateEndpointHealth,
  type DeliveryDeps,
  type WebhookMessage,
} from "../services/webhooks";
import type { QueueConsumer } from "./index";

export interface WebhookConsumerDeps extends DeliveryDeps {
  queue: Queue<unknown>;
}

/** A message that arrives this close to its due time is sent rather than chained again. */
const EARLY_TOLERANCE_SECONDS = 30;
/** Back-off for our own failures (D1 or the queue), not the receiver's. */
const INTERNAL_RETRY_DELAY_SECONDS = 30;
/** `sendBatch` takes at most 100 messages. */
const SEND_BATCH_SIZE = 100;
/**
 * A Worker invocation holds at most 6 outbound connections open; more wait
 * for a free one, and that wait would eat into each delivery's 10 s timeout.
 */
const PARALLEL_DELIVERIES = 6;

export type DeliveryDecision = { action: "ack" } | { action: "retry"; delaySeconds: number };

/** Queue delays must be whole seconds within the platform's limit; anything else fails opaquely. */
export function queueDelay(seconds: number): number {
  const whole = Math.ceil(seconds);
  if (!Number.isFinite(whole) || whole < 0) throw new Error(`invalid queue delay: ${seconds}`);
  return Math.min(whole, MAX_QUEUE_DELAY_SECONDS);
}

function parseMessage(body: unknown): WebhookMessage | null {
  const m = body as Partial<Record<string, unknown>> | null;
  if (m?.kind === "fanout" && typeof m.event_id === "string") return { kind: "fanout", event_id: m.event_id };
  if (m?.kind === "deliver" && typeof m.event_id === "string" && typeof m.endpoint_id === "string") {
    return { kind: "deliver", event_id: m.event_id, endpoint_id: m.endpoint_id };
  }
  return null;
}

export async function fanOut(deps: WebhookConsumerDeps, eventId: string): Promise<void> {
  const event = await deps.db.select({ orgId: events.orgId }).from(events).where(eq(events.id, eventId)).get();
  if (!event) {
    console.error(JSON.stringify({ level: "error", msg: "fanout for an unknown event", event_id: eventId }));
    return;
  }
  const endpoints = await deps.db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.orgId, event.orgId), eq(webhookEndpoints.status, "enabled"), isNull(webhookEndpoints.deletedAt)));
  for (let i = 0; i < endpoints.length; i += SEND_BATCH_SIZE) {
    await deps.queue.sendBatch(
      endpoints.slice(i, i + SEND_BATCH_SIZE).map((e) => ({ body: { kind: "deliver", event_id: eventId, endpoint_id: e.id } satisfies WebhookMessage })),
    );
  }
}

/** Makes the attempt that is due for one event at one endpoint, records it, and says what to do with the message. */
export async function deliver(deps: WebhookConsumerDeps, eventId: string, endpointId: string): Promise<DeliveryDecision> {
  // One round trip for the three reads: this runs once per delivery.
  const [[event], [endpoint], [previous]] = await deps.db.batch([
    deps.db.select().from(events).where(eq(events.id, eventId)),
    deps.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId)),
    lastAttemptQuery(deps.db, eventId, endpointId),
  ]);
  // An endpoint only ever receives its own organization's events.
  if (!event || !endpoint || endpoint.orgId !== event.orgId) return { action: "ack" };
  // Deleted or disabled since the event was fanned out: stop quietly.
  if (endpoint.deletedAt !== null || endpoint.status !== "enabled") return { action: "ack" };

  const now = deps.now();
  // A duplicate message after the chain already ended (success or last attempt).
  if (previous && (previous.succeeded || previous.nextAttemptAt === null)) return { action: "ack" };
  if (previous?.nextAttemptAt != null && previous.nextAttemptAt - now > EARLY_TOLERANCE_SECONDS) {
    return { action: "retry", delaySeconds: queueDelay(previous.nextAttemptAt - now) };
  }

  const attempt = (previous?.attempt ?? 0) + 1;
  const outcome = await sendToEndpoint(deps, endpoint, JSON.stringify(eventObject(event)));
  const wait = outcome.delivered || attempt >= MAX_ATTEMPTS ? null : RETRY_DELAYS_SECONDS[attempt - 1];
  const at = deps.now();
  await deps.db.batch([
    recordAttempt(deps.db, { orgId: event.orgId, eventId, endpointId, attempt, outcome, at, nextAttemptAt: wait === null ? null : at + wait }),
    updateEndpointHealth(deps.db, endpointId, outcome.delivered, at),
  ]);
  if (!outcome.delivered && wait === null) {
    console.warn(JSON.stringify({ level: "warn", msg: "webhook delivery gave up", event_id: eventId, endpoint_id: endpointId, attempts: attempt }));
  }
  return wait === null ? { action: "ack" } : { action: "retry", delaySeconds: queueDelay(wait) };
}

async function forEachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

export async function handleWebhookBatch(batch: MessageBatch<unknown>, deps: WebhookConsumerDeps): Promise<void> {
  await forEachLimited(batch.messages, PARALLEL_DELIVERIES, async (message) => {
    const body = parseMessage(message.body);
    if (!body) {
      console.error(JSON.stringify({ level: "error", msg: "malformed webhooks message dropped", id: message.id }));
      message.ack();
      return;
    }
    try {
      if (body.kind === "fanout") {
        await fanOut(deps, body.event_id);
        message.ack();
        return;
      }
      const decision = await deliver(deps, body.event_id, body.endpoint_id);
      if (decision.action === "retry") message.retry({ delaySeconds: decision.delaySeconds });
      else message.ack();
    } catch (err) {
      // Our side failed (not the receiver): try again later; after the
      // consumer's max_retries the message lands in the dead-letter queue.
      console.error(JSON.stringify({ level: "error", msg: "webhooks message failed", id: message.id, error: String((err as Error)?.stack ?? err) }));
      message.retry({ delaySeconds: INTERNAL_RETRY_DELAY_SECONDS });
    }
  });
}

/**
 * Dead letters are messages our consumer failed on repeatedly. A delivery is
 * closed with a final failed record (no request was sent for it), so the
 * attempt history says why it stopped; the event stays in GET /v1/events.
 */
export async function handleWebhookDeadLetterBatch(batch: MessageBatch<unknown>, deps: Pick<WebhookConsumerDeps, "db" | "now">): Promise<void> {
  for (const message of batch.messages) {
    const body = parseMessage(message.body);
    if (body?.kind === "deliver") {
      const [[event], [previous]] = await deps.db.batch([
        deps.db.select({ orgId: events.orgId }).from(events).where(eq(events.id, body.event_id)),
        lastAttemptQuery(deps.db, body.event_id, body.endpoint_id),
      ]);
      const chainEnded = previous && (previous.succeeded || previous.nextAttemptAt === null);
      if (event && !chainEnded) {
        await recordAttempt(deps.db, {
          orgId: event.orgId,
          eventId: body.event_id,
          endpointId: body.endpoint_id,
          attempt: (previous?.attempt ?? 0) + 1,
          outcome: { delivered: false, statusCode: null, latencyMs: null, error: "Abandoned after repeated internal errors; no request was sent. The event is still listed by GET /v1/events." },
          at: deps.now(),
          nextAttemptAt: null,
        });
      }
    }
    console.error(JSON.stringify({ level: "error", msg: "webhooks message dead-lettered", id: message.id, attempts: message.attempts, body: message.body }));
    message.ack();
  }
}

function consumerDeps(env: Env): WebhookConsumerDeps {
  return { ...buildServices(env), queue: env.WEBHOOKS_QUEUE };
}

export const consumeWebhooks: QueueConsumer = (batch, env) => handleWebhookBatch(batch, consumerDeps(env));
export const consumeWebhooksDeadLetter: QueueConsumer = (batch, env) => handleWebhookDeadLetterBatch(batch, consumerDeps(env));
