// Webhook endpoints, signed delivery with the spec's retry schedule, endpoint
// disabling, and GET /v1/events. Deliveries go to a Node receiver
// (test/support/webhook-receiver.ts) that verifies every signature with the
// official `stripe` package. The retry schedule is driven through the queue
// consumer with `createMessageBatch` + `getQueueResult` and an injected clock.
import { createExecutionContext, createMessageBatch, createScheduledController, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, inject, it, vi } from "vitest";
import { webhookDeliveries, webhookEndpoints } from "../../drizzle/schema";
import worker from "../../worker/index";
import { buildServices } from "../../worker/middleware/services";
import { HttpClient } from "../../worker/services/http-client";
import { handleWebhookBatch, handleWebhookDeadLetterBatch, queueDelay, type WebhookConsumerDeps } from "../../worker/queues/webhooks";
import { emitEvent, type EventObject } from "../../worker/services/events";
import { DISABLED_REASON, disableFailingEndpoints, MAX_ENDPOINTS_PER_ORGANIZATION, RETRY_DELAYS_SECONDS } from "../../worker/services/webhooks";
import { admin, call, createOrg, expectError, OPERATOR_TOKEN, setDnsAnswer, type TestOrg } from "./helpers";

const RECEIVER = inject("webhookReceiverUrl");
const QUEUE = "hoops-webhooks-staging";
const DLQ = "hoops-webhooks-dlq-staging";
const T0 = 1_900_000_000;

interface Received {
  receivedAtMs: number;
  headers: Record<string, string>;
  body: string;
  verified: boolean;
  verifyError: string | null;
  eventId: string | null;
}

// ------------------------------------------------------------------ helpers

function newInbox(): string {
  return `box${crypto.randomUUID().replaceAll("-", "")}`;
}

async function configure(inbox: string, config: Record<string, unknown>) {
  const res = await fetch(`${RECEIVER}/control/${inbox}`, { method: "PUT", body: JSON.stringify(config) });
  expect(res.status).toBe(204);
}

async function received(inbox: string): Promise<Received[]> {
  const res = await fetch(`${RECEIVER}/control/${inbox}`);
  return ((await res.json()) as { received: Received[] }).received;
}

async function waitForDeliveries(inbox: string, count: number): Promise<Received[]> {
  for (let i = 0; i < 300; i++) {
    const got = await received(inbox);
    if (got.length >= count) return got;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`inbox ${inbox} did not get ${count} deliveries`);
}

async function createEndpoint(org: TestOrg, url: string, description?: string) {
  const res = await call("/v1/webhook_endpoints", { method: "POST", key: org.key, json: { url, ...(description ? { description } : {}) } });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string; object: string; url: string; description: string | null; status: string; disabled_reason: string | null; created: number; secret: string };
}

/** An endpoint pointing at a fresh inbox that verifies with the endpoint's secret. */
async function endpointWithInbox(org: TestOrg, config: Record<string, unknown> = {}) {
  const inbox = newInbox();
  const endpoint = await createEndpoint(org, `${RECEIVER}/in/${inbox}`);
  await configure(inbox, { secret: endpoint.secret, ...config });
  return { inbox, endpoint };
}

/** A queue stand-in that records what would have been sent. */
function recordingQueue() {
  const sent: unknown[] = [];
  const queue = {
    send: async (body: unknown) => void sent.push(body),
    sendBatch: async (messages: Iterable<{ body: unknown }>) => {
      for (const m of messages) sent.push(m.body);
    },
  } as unknown as Queue<unknown>;
  return { queue, sent };
}

function clock(start = T0) {
  let t = start;
  return { now: () => t, advance: (s: number) => (t += s), set: (s: number) => (t = s) };
}

function consumerDeps(now: () => number, overrides: Partial<WebhookConsumerDeps> = {}): WebhookConsumerDeps {
  return { ...buildServices(env, now), queue: recordingQueue().queue, timeoutMs: 2000, ...overrides };
}

/** Stores an event without touching the real queue, so only the test drives delivery. */
async function storeEvent(org: TestOrg, now: () => number, type: "session.processed" | "session.failed" = "session.processed", object: object = { id: "sess_x", object: "session", metadata: { team: "U12" } }) {
  const { queue, sent } = recordingQueue();
  const event = await emitEvent({ db: buildServices(env).db, env: { WEBHOOKS_QUEUE: queue }, now }, { orgId: org.orgId, type, object });
  expect(sent).toEqual([{ kind: "fanout", event_id: event.id }]);
  return event;
}

let messageSeq = 0;
/**
 * Runs one deliver message through the consumer. `getQueueResult` reports
 * ack or retry but not the retry's delay, so the delay is read from the
 * message's `retry` call.
 */
async function runDeliver(deps: WebhookConsumerDeps, eventId: string, endpointId: string) {
  const batch = createMessageBatch(QUEUE, [{ id: `msg-${++messageSeq}`, timestamp: new Date(), attempts: 1, body: { kind: "deliver", event_id: eventId, endpoint_id: endpointId } }]);
  const retry = vi.spyOn(batch.messages[0], "retry");
  const ctx = createExecutionContext();
  await handleWebhookBatch(batch, deps);
  const result = await getQueueResult(batch, ctx);
  const acked = result.explicitAcks.length === 1;
  if (!acked) expect(result.retryMessages).toHaveLength(1);
  return { acked, delaySeconds: acked ? null : (retry.mock.calls[0]?.[0]?.delaySeconds ?? null) };
}

async function attempts(eventId: string, endpointId: string) {
  return buildServices(env)
    .db.select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.eventId, eventId), eq(webhookDeliveries.endpointId, endpointId)))
    .orderBy(webhookDeliveries.attempt)
    .all();
}

async function endpointRow(id: string) {
  return buildServices(env).db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).get();
}

// ------------------------------------------------------------ endpoints API

describe("webhook endpoints", () => {
  it("creates an endpoint and shows its secret exactly once", async () => {
    const org = await createOrg();
    const created = await createEndpoint(org, `${RECEIVER}/in/${newInbox()}`, "production receiver");
    expect(created).toMatchObject({ object: "webhook_endpoint", status: "enabled", disabled_reason: null, description: "production receiver" });
    expect(created.id).toMatch(/^we_[0-9A-Za-z]{24}$/);
    expect(created.secret).toMatch(/^hws_stg_[0-9A-Za-z]{32}$/);
    expect(typeof created.created).toBe("number");

    const { secret, ...shown } = created;
    const got = await call(`/v1/webhook_endpoints/${created.id}`, { key: org.key });
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual(shown);
    const list: any = await (await call("/v1/webhook_endpoints", { key: org.key })).json();
    expect(list).toEqual({ object: "list", data: [shown], has_more: false, total_count: 1 });
    expect(JSON.stringify(list)).not.toContain(secret);
  });

  it("pages the list newest first with limit and starting_after", async () => {
    const org = await createOrg();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createEndpoint(org, `${RECEIVER}/in/${newInbox()}`)).id);
    const first: any = await (await call("/v1/webhook_endpoints?limit=2", { key: org.key })).json();
    expect(first.has_more).toBe(true);
    expect(first.total_count).toBe(3);
    const second: any = await (await call(`/v1/webhook_endpoints?limit=2&starting_after=${first.data[1].id}`, { key: org.key })).json();
    expect(second.has_more).toBe(false);
    const seen = [...first.data, ...second.data].map((e: any) => e.id);
    expect(new Set(seen)).toEqual(new Set(ids));
    expect(seen).toHaveLength(3);
    const created = [...first.data, ...second.data].map((e: any) => e.created);
    expect(created).toEqual([...created].sort((a, b) => b - a));
  });

  it("allows at most 16 endpoints per organization: the 17th is a clear 400; deleting one makes room", async () => {
    const org = await createOrg();
    const ids: string[] = [];
    for (let i = 0; i < MAX_ENDPOINTS_PER_ORGANIZATION; i++) ids.push((await createEndpoint(org, `${RECEIVER}/in/${newInbox()}`)).id);
    expect(MAX_ENDPOINTS_PER_ORGANIZATION).toBe(16);
    const refused = await call("/v1/webhook_endpoints", { method: "POST", key: org.key, json: { url: `${RECEIVER}/in/${newInbox()}` } });
    const error = await expectError(refused, 400, "parameter_invalid", "url");
    expect(error.message).toMatch(/at most 16 webhook endpoints/);
    const list: any = await (await call("/v1/webhook_endpoints?limit=100", { key: org.key })).json();
    expect(list.total_count).toBe(16);
    // Another organization is not affected, and a deleted endpoint frees its place.
    expect((await createEndpoint(await createOrg(), `${RECEIVER}/in/${newInbox()}`)).id).toMatch(/^we_/);
    expect((await call(`/v1/webhook_endpoints/${ids[0]}`, { method: "DELETE", key: org.key })).status).toBe(200);
    expect((await createEndpoint(org, `${RECEIVER}/in/${newInbox()}`)).id).toMatch(/^we_/);
  });

  it("deletes an endpoint: gone from reads, a second delete is 404", async () => {
    const org = await createOrg();
    const endpoint = await createEndpoint(org, `${RECEIVER}/in/${newInbox()}`);
    const res = await call(`/v1/webhook_endpoints/${endpoint.id}`, { method: "DELETE", key: org.key });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: endpoint.id, object: "webhook_endpoint", deleted: true });
    await expectError(await call(`/v1/webhook_endpoints/${endpoint.id}`, { key: org.key }), 404, "resource_missing", "id");
    await expectError(await call(`/v1/webhook_endpoints/${endpoint.id}`, { method: "DELETE", key: org.key }), 404, "resource_missing");
    const list: any = await (await call("/v1/webhook_endpoints", { key: org.key })).json();
    expect(list.total_count).toBe(0);
  });

  it("answers 404 for another organization's endpoint on every operation", async () => {
    const owner = await createOrg();
    const other = await createOrg();
    const endpoint = await createEndpoint(owner, `${RECEIVER}/in/${newInbox()}`);
    await expectError(await call(`/v1/webhook_endpoints/${endpoint.id}`, { key: other.key }), 404, "resource_missing");
    await expectError(await call(`/v1/webhook_endpoints/${endpoint.id}`, { method: "DELETE", key: other.key }), 404, "resource_missing");
    await expectError(await call(`/v1/webhook_endpoints/${endpoint.id}/test`, { method: "POST", key: other.key }), 404, "resource_missing");
    const list: any = await (await call("/v1/webhook_endpoints", { key: other.key })).json();
    expect(list.data).toEqual([]);
    expect((await call(`/v1/webhook_endpoints/${endpoint.id}`, { key: owner.key })).status).toBe(200);
  });

  it("validates the body", async () => {
    const org = await createOrg();
    await expectError(await call("/v1/webhook_endpoints", { method: "POST", key: org.key, json: {} }), 400, "parameter_invalid", "url");
    await expectError(await call("/v1/webhook_endpoints", { method: "POST", key: org.key, json: { url: 42 } }), 400, "parameter_invalid", "url");
    await expectError(
      await call("/v1/webhook_endpoints", { method: "POST", key: org.key, json: { url: "https://public.example.test/h", description: "x".repeat(501) } }),
      400,
      "parameter_invalid",
      "description",
    );
    await expectError(await call("/v1/webhook_endpoints", { method: "POST", json: { url: "https://public.example.test/h" } }), 401, "missing_api_key");
  });

  it("accepts a public https URL", async () => {
    const org = await createOrg();
    expect((await createEndpoint(org, "https://public.example.test/hooks")).url).toBe("https://public.example.test/hooks");
  });

  it("replays a registration sent again with its Idempotency-Key (secret included)", async () => {
    const org = await createOrg();
    const register = () =>
      call("/v1/webhook_endpoints", { method: "POST", key: org.key, json: { url: "https://public.example.test/idem" }, headers: { "Idempotency-Key": "we-1" } });
    const first = await register();
    const firstBody: any = await first.json();
    const again = await register();
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.json()).toEqual(firstBody);
    expect(firstBody.secret).toMatch(/^hws_stg_/);
    const listed: any = await (await call("/v1/webhook_endpoints", { key: org.key })).json();
    expect(listed.data.map((e: any) => e.id)).toEqual([firstBody.id]);
  });

  it("answers 503 dns_unavailable when the resolver is down, and the retry with the same key registers", async () => {
    const org = await createOrg();
    const host = "flaky-hooks.example.test";
    await setDnsAnswer(env.DOH_URL!, host, { fault: "servfail" });
    const register = () =>
      call("/v1/webhook_endpoints", { method: "POST", key: org.key, json: { url: `https://${host}/hooks` }, headers: { "Idempotency-Key": "we-dns" } });
    const down = await register();
    expect(down.headers.get("Retry-After")).toBe("5");
    await expectError(down, 503, "dns_unavailable", "url");
    await setDnsAnswer(env.DOH_URL!, host, { A: ["93.184.216.34"] });
    const ok = await register();
    expect(ok.status).toBe(200);
    expect(ok.headers.get("Idempotent-Replayed")).toBeNull();
    expect(((await ok.json()) as any).url).toBe(`https://${host}/hooks`);
  });

  // The SSRF corpus itself is pinned in url-safety.test.ts; these show the
  // registration path applies it with `param: "url"`.
  const refused = [
    "http://public.example.test/hooks", // not https
    "https://user:pass@public.example.test/hooks",
    "https://private.example.test/hooks",
    "https://mixed.example.test/hooks",
    "https://linklocal.example.test/hooks",
    "https://169.254.169.254/latest/meta-data",
    "https://10.0.0.1/hooks",
    "https://[fe80::1]/hooks",
    "https://nonexistent.example.test/hooks",
    "not a url",
  ];
  for (const url of refused) {
    it(`refuses to register ${url}`, async () => {
      const org = await createOrg();
      await expectError(await call("/v1/webhook_endpoints", { method: "POST", key: org.key, json: { url } }), 400, "url_not_allowed", "url");
    });
  }
});

// ----------------------------------------------------------- test endpoint

describe("POST /v1/webhook_endpoints/{id}/test", () => {
  it("sends a signed webhook_endpoint.test event right away and reports the outcome", async () => {
    const org = await createOrg();
    const { inbox, endpoint } = await endpointWithInbox(org);
    const res = await call(`/v1/webhook_endpoints/${endpoint.id}/test`, { method: "POST", key: org.key });
    expect(res.status).toBe(200);
    const body: any = await res.json();
    expect(body).toMatchObject({ object: "webhook_test", delivered: true, status_code: 200, error: null });
    expect(body.event).toMatch(/^evt_/);
    expect(Number.isInteger(body.latency_ms)).toBe(true);

    const [delivery] = await received(inbox);
    expect(delivery.verifyError).toBeNull();
    expect(delivery.verified).toBe(true);
    expect(delivery.headers["content-type"]).toBe("application/json");
    expect(delivery.headers["user-agent"]).toMatch(/^HoopsWebhooks\//);
    expect(delivery.headers["service-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const { secret, ...shown } = endpoint;
    expect(JSON.parse(delivery.body)).toEqual({ id: body.event, object: "event", type: "webhook_endpoint.test", created: expect.any(Number), data: { object: shown } });
    expect(delivery.body).not.toContain(secret);

    // Not an event of the organization: the catch-up list stays empty.
    const events: any = await (await call("/v1/events", { key: org.key })).json();
    expect(events.total_count).toBe(0);
  });

  it("reports a failing receiver without retrying it or counting it against the endpoint", async () => {
    const org = await createOrg();
    const { inbox, endpoint } = await endpointWithInbox(org, { defaultStatus: 500 });
    const body: any = await (await call(`/v1/webhook_endpoints/${endpoint.id}/test`, { method: "POST", key: org.key })).json();
    expect(body).toMatchObject({ delivered: false, status_code: 500, error: "The endpoint answered HTTP 500" });
    expect(await received(inbox)).toHaveLength(1);
    expect((await endpointRow(endpoint.id))!.failingSince).toBeNull();
    const [row] = await attempts(body.event, endpoint.id);
    expect(row).toMatchObject({ attempt: 1, statusCode: 500, succeeded: false, nextAttemptAt: null });
  });
});

// ------------------------------------------------- delivery through the queue

describe("delivery through the real queue", () => {
  it("fans an emitted event out to every enabled endpoint of the organization, signed and verifiable", async () => {
    const org = await createOrg();
    const a = await endpointWithInbox(org);
    const b = await endpointWithInbox(org);
    const deleted = await endpointWithInbox(org);
    await call(`/v1/webhook_endpoints/${deleted.endpoint.id}`, { method: "DELETE", key: org.key });
    const stranger = await endpointWithInbox(await createOrg());

    const session = { id: "sess_abc", object: "session", status: "processed", metadata: { game: "final" } };
    const event = await emitEvent(buildServices(env), { orgId: org.orgId, type: "session.processed", object: session });

    for (const { inbox, endpoint } of [a, b]) {
      const [delivery] = await waitForDeliveries(inbox, 1);
      expect(delivery.verifyError).toBeNull();
      expect(delivery.verified).toBe(true);
      expect(JSON.parse(delivery.body)).toEqual(event);
      expect(event.data.object).toEqual(session);
      // The delivered event is the one the catch-up list shows.
      const listed: any = await (await call("/v1/events", { key: org.key })).json();
      expect(listed.data).toEqual([event]);
      const rows = await attempts(event.id, endpoint.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ attempt: 1, statusCode: 200, succeeded: true, error: null, nextAttemptAt: null });
    }
    expect(await received(deleted.inbox)).toEqual([]);
    expect(await received(stranger.inbox)).toEqual([]);
  });
});

describe("emitEvent", () => {
  it("stores nothing when the event cannot be queued, so a retry emits it afresh", async () => {
    const org = await createOrg();
    const failing = { send: async () => Promise.reject(new Error("queue unavailable")) } as unknown as Queue<unknown>;
    await expect(emitEvent({ db: buildServices(env).db, env: { WEBHOOKS_QUEUE: failing }, now: () => T0 }, { orgId: org.orgId, type: "session.failed", object: {} })).rejects.toThrow(
      "queue unavailable",
    );
    const listed: any = await (await call("/v1/events", { key: org.key })).json();
    expect(listed.total_count).toBe(0);
  });
});

describe("fanout message", () => {
  it("queues one deliver message per enabled endpoint, none for disabled or deleted ones", async () => {
    const org = await createOrg();
    const on1 = await createEndpoint(org, `${RECEIVER}/in/${newInbox()}`);
    const on2 = await createEndpoint(org, `${RECEIVER}/in/${newInbox()}`);
    const off = await createEndpoint(org, `${RECEIVER}/in/${newInbox()}`);
    await buildServices(env).db.update(webhookEndpoints).set({ status: "disabled" }).where(eq(webhookEndpoints.id, off.id));
    const gone = await createEndpoint(org, `${RECEIVER}/in/${newInbox()}`);
    await call(`/v1/webhook_endpoints/${gone.id}`, { method: "DELETE", key: org.key });
    await createEndpoint(await createOrg(), `${RECEIVER}/in/${newInbox()}`);

    const t = clock();
    const event = await storeEvent(org, t.now);
    const { queue, sent } = recordingQueue();
    const batch = createMessageBatch(QUEUE, [{ id: "fan-1", timestamp: new Date(), attempts: 1, body: { kind: "fanout", event_id: event.id } }]);
    const ctx = createExecutionContext();
    await handleWebhookBatch(batch, consumerDeps(t.now, { queue }));
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual(["fan-1"]);
    expect(sent).toHaveLength(2);
    expect(new Set(sent)).toEqual(
      new Set([
        { kind: "deliver", event_id: event.id, endpoint_id: on1.id },
        { kind: "deliver", event_id: event.id, endpoint_id: on2.id },
      ]),
    );
  });
});

describe("deliver message", () => {
  it("never sends an event to another organization's endpoint", async () => {
    const org = await createOrg();
    const stranger = await endpointWithInbox(await createOrg());
    const t = clock();
    const event = await storeEvent(org, t.now);
    expect((await runDeliver(consumerDeps(t.now), event.id, stranger.endpoint.id)).acked).toBe(true);
    expect(await received(stranger.inbox)).toEqual([]);
    expect(await attempts(event.id, stranger.endpoint.id)).toEqual([]);
  });
});

// ---------------------------------------------------------- retry schedule

describe("retries", () => {
  it("retries after 1 min, 5 min, 30 min, 2 h, 6 h, 12 h and 24 h (chained in 12 h hops) until the receiver answers 2xx", async () => {
    const org = await createOrg();
    // Fails seven times, then succeeds: all eight attempts are used.
    const { inbox, endpoint } = await endpointWithInbox(org, { statuses: [500, 502, 503, 500, 404, 500, 500], defaultStatus: 200 });
    const t = clock();
    const event = await storeEvent(org, t.now);
    const deps = consumerDeps(t.now);

    const delays: number[] = [];
    let requestsBefore = 0;
    const hops: boolean[] = []; // whether each run sent a request
    for (;;) {
      const result = await runDeliver(deps, event.id, endpoint.id);
      const count = (await received(inbox)).length;
      hops.push(count > requestsBefore);
      requestsBefore = count;
      if (result.acked) break;
      delays.push(result.delaySeconds!);
      t.advance(result.delaySeconds!);
    }
    expect(delays).toEqual([60, 300, 1800, 7200, 21600, 43200, 43200, 43200]);
    // The second 12-hour hop of the 24-hour wait sends nothing.
    expect(hops).toEqual([true, true, true, true, true, true, true, false, true]);

    const got = await received(inbox);
    expect(got).toHaveLength(8);
    // One event id and one body across every attempt, so receivers can dedupe.
    expect(new Set(got.map((d) => d.eventId))).toEqual(new Set([event.id]));
    expect(new Set(got.map((d) => d.body)).size).toBe(1);

    const rows = await attempts(event.id, endpoint.id);
    expect(rows.map((r) => r.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(rows.map((r) => r.statusCode)).toEqual([500, 502, 503, 500, 404, 500, 500, 200]);
    expect(rows.map((r) => r.succeeded)).toEqual([false, false, false, false, false, false, false, true]);
    expect(rows.map((r) => (r.nextAttemptAt === null ? null : r.nextAttemptAt - r.created))).toEqual([...RETRY_DELAYS_SECONDS, null]);
    expect(rows.every((r) => r.latencyMs !== null)).toBe(true);
    expect(rows[0].error).toBe("The endpoint answered HTTP 500");
    // The streak started at the first failure and the success ended it.
    expect((await endpointRow(endpoint.id))!.failingSince).toBeNull();
  });

  it("gives up after eight attempts and ignores a duplicate message afterwards", async () => {
    const org = await createOrg();
    const { inbox, endpoint } = await endpointWithInbox(org, { defaultStatus: 500 });
    const t = clock();
    const event = await storeEvent(org, t.now);
    const deps = consumerDeps(t.now);
    for (let run = 0; run < 20; run++) {
      const result = await runDeliver(deps, event.id, endpoint.id);
      if (result.acked) break;
      t.advance(result.delaySeconds!);
    }
    expect(await received(inbox)).toHaveLength(8);
    const rows = await attempts(event.id, endpoint.id);
    expect(rows).toHaveLength(8);
    expect(rows[7]).toMatchObject({ attempt: 8, succeeded: false, nextAttemptAt: null });
    expect((await endpointRow(endpoint.id))!.failingSince).toBe(T0);

    const again = await runDeliver(deps, event.id, endpoint.id);
    expect(again.acked).toBe(true);
    expect(await received(inbox)).toHaveLength(8);
  });

  it("asks the queue only for whole-second delays within its 12-hour limit", () => {
    expect(queueDelay(60)).toBe(60);
    expect(queueDelay(59.2)).toBe(60);
    expect(queueDelay(86_400)).toBe(43_200);
    expect(() => queueDelay(-1)).toThrow();
    expect(() => queueDelay(Number.NaN)).toThrow();
  });

  it("a message that arrives early is put back for the remainder without sending", async () => {
    const org = await createOrg();
    const { inbox, endpoint } = await endpointWithInbox(org, { statuses: [500] });
    const t = clock();
    const event = await storeEvent(org, t.now);
    const deps = consumerDeps(t.now);
    expect((await runDeliver(deps, event.id, endpoint.id)).delaySeconds).toBe(60);
    t.advance(20);
    expect((await runDeliver(deps, event.id, endpoint.id)).delaySeconds).toBe(40);
    expect(await received(inbox)).toHaveLength(1);
  });

  it("treats a timeout as a failure", async () => {
    const org = await createOrg();
    const { endpoint } = await endpointWithInbox(org, { delayMs: 1500 });
    const t = clock();
    const event = await storeEvent(org, t.now);
    const result = await runDeliver(consumerDeps(t.now, { timeoutMs: 200 }), event.id, endpoint.id);
    expect(result.delaySeconds).toBe(60);
    const [row] = await attempts(event.id, endpoint.id);
    expect(row).toMatchObject({ statusCode: null, succeeded: false });
    expect(row.error).toMatch(/^Timed out/);
  });

  it("does not follow redirects", async () => {
    const org = await createOrg();
    const target = newInbox();
    const { inbox, endpoint } = await endpointWithInbox(org, { defaultStatus: 302, location: `${RECEIVER}/in/${target}` });
    const t = clock();
    const event = await storeEvent(org, t.now);
    const result = await runDeliver(consumerDeps(t.now), event.id, endpoint.id);
    expect(result.delaySeconds).toBe(60);
    expect(await received(inbox)).toHaveLength(1);
    expect(await received(target)).toEqual([]);
    const [row] = await attempts(event.id, endpoint.id);
    expect(row).toMatchObject({ statusCode: 302, succeeded: false, error: "Redirect (HTTP 302) not followed" });
  });

  it("accepts any 2xx", async () => {
    const org = await createOrg();
    const { endpoint } = await endpointWithInbox(org, { defaultStatus: 204 });
    const t = clock();
    const event = await storeEvent(org, t.now);
    expect((await runDeliver(consumerDeps(t.now), event.id, endpoint.id)).acked).toBe(true);
  });
});

// ------------------------------------------------------ SSRF at delivery

describe("the destination is checked again at delivery time", () => {
  it("does not send to a host that now resolves to a private address, and retries later", async () => {
    const org = await createOrg();
    const endpoint = await createEndpoint(org, "https://public.example.test/hooks");
    // As if the name had been re-pointed at an internal address after registration.
    await buildServices(env).db.update(webhookEndpoints).set({ url: "https://private.example.test/hooks" }).where(eq(webhookEndpoints.id, endpoint.id));
    const t = clock();
    const event = await storeEvent(org, t.now);
    const result = await runDeliver(consumerDeps(t.now), event.id, endpoint.id);
    expect(result.delaySeconds).toBe(60);
    const [row] = await attempts(event.id, endpoint.id);
    expect(row).toMatchObject({ statusCode: null, latencyMs: null, succeeded: false });
    expect(row.error).toMatch(/^Not sent: the destination is not allowed/);
  });

  it("does not send to loopback once the development setting is off", async () => {
    const org = await createOrg();
    const { inbox, endpoint } = await endpointWithInbox(org);
    const t = clock();
    const event = await storeEvent(org, t.now);
    const strict = new HttpClient(buildServices(env).http.resolver, false);
    await runDeliver(consumerDeps(t.now, { http: strict }), event.id, endpoint.id);
    expect(await received(inbox)).toEqual([]);
    const [row] = await attempts(event.id, endpoint.id);
    expect(row.error).toMatch(/^Not sent: the destination is not allowed/);
  });
});

// --------------------------------------------- deletion and disabling

describe("deletion and disabling stop delivery", () => {
  it("a deleted endpoint gets no more attempts, including pending retries", async () => {
    const org = await createOrg();
    const { inbox, endpoint } = await endpointWithInbox(org, { defaultStatus: 500 });
    const t = clock();
    const event = await storeEvent(org, t.now);
    const deps = consumerDeps(t.now);
    expect((await runDeliver(deps, event.id, endpoint.id)).delaySeconds).toBe(60);
    await call(`/v1/webhook_endpoints/${endpoint.id}`, { method: "DELETE", key: org.key });
    t.advance(60);
    expect((await runDeliver(deps, event.id, endpoint.id)).acked).toBe(true);
    expect(await received(inbox)).toHaveLength(1);
    expect(await attempts(event.id, endpoint.id)).toHaveLength(1);
  });

  it("disables an endpoint that has failed for 7 straight days, and then sends it nothing", async () => {
    const org = await createOrg();
    const { inbox, endpoint } = await endpointWithInbox(org, { defaultStatus: 500 });
    const healthy = await endpointWithInbox(org);
    const t = clock();
    const first = await storeEvent(org, t.now);
    const deps = consumerDeps(t.now);
    await runDeliver(deps, first.id, endpoint.id);
    await runDeliver(deps, first.id, healthy.endpoint.id);
    expect((await endpointRow(endpoint.id))!.failingSince).toBe(T0);
    expect((await endpointRow(healthy.endpoint.id))!.failingSince).toBeNull();

    const { db } = buildServices(env);
    expect(await disableFailingEndpoints({ db }, T0 + 7 * 86400 - 1)).not.toContain(endpoint.id);
    expect((await endpointRow(endpoint.id))!.status).toBe("enabled");
    expect(await disableFailingEndpoints({ db }, T0 + 7 * 86400)).toContain(endpoint.id);

    const shown: any = await (await call(`/v1/webhook_endpoints/${endpoint.id}`, { key: org.key })).json();
    expect(shown).toMatchObject({ status: "disabled", disabled_reason: DISABLED_REASON });
    expect((await endpointRow(healthy.endpoint.id))!.status).toBe("enabled");

    t.set(T0 + 7 * 86400 + 60);
    const later = await storeEvent(org, t.now);
    expect((await runDeliver(deps, later.id, endpoint.id)).acked).toBe(true);
    expect(await received(inbox)).toHaveLength(1);
  });

  it("a success within the 7 days resets the streak", async () => {
    const org = await createOrg();
    const { endpoint } = await endpointWithInbox(org, { statuses: [500], defaultStatus: 200 });
    const t = clock();
    const event = await storeEvent(org, t.now);
    const deps = consumerDeps(t.now);
    await runDeliver(deps, event.id, endpoint.id);
    expect((await endpointRow(endpoint.id))!.failingSince).toBe(T0);
    t.advance(60);
    await runDeliver(deps, event.id, endpoint.id);
    expect((await endpointRow(endpoint.id))!.failingSince).toBeNull();
    expect(await disableFailingEndpoints({ db: deps.db }, T0 + 30 * 86400)).not.toContain(endpoint.id);
  });

  it("the cron handler runs the disabling sweep", async () => {
    const org = await createOrg();
    const endpoint = await createEndpoint(org, `${RECEIVER}/in/${newInbox()}`);
    const scheduledAt = Math.floor(Date.now() / 1000);
    await buildServices(env).db.update(webhookEndpoints).set({ failingSince: scheduledAt - 8 * 86400 }).where(eq(webhookEndpoints.id, endpoint.id));
    await worker.scheduled(createScheduledController({ scheduledTime: scheduledAt * 1000, cron: "*/5 * * * *" }), env);
    expect((await endpointRow(endpoint.id))!.status).toBe("disabled");
  });
});

// ---------------------------------------------------------- dead letters

describe("dead-letter consumer", () => {
  it("closes the delivery with a final failed record and acknowledges", async () => {
    const org = await createOrg();
    const { inbox, endpoint } = await endpointWithInbox(org);
    const t = clock();
    const event = await storeEvent(org, t.now);
    const batch = createMessageBatch(DLQ, [{ id: "dead-1", timestamp: new Date(), attempts: 21, body: { kind: "deliver", event_id: event.id, endpoint_id: endpoint.id } }]);
    const ctx = createExecutionContext();
    await handleWebhookDeadLetterBatch(batch, { db: buildServices(env).db, now: t.now });
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(["dead-1"]);
    const rows = await attempts(event.id, endpoint.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ attempt: 1, succeeded: false, statusCode: null, nextAttemptAt: null });
    expect(rows[0].error).toMatch(/^Abandoned/);
    // The chain is over: a stray copy of the message sends nothing.
    expect((await runDeliver(consumerDeps(t.now), event.id, endpoint.id)).acked).toBe(true);
    expect(await received(inbox)).toEqual([]);
  });
});

// ------------------------------------------------------------- GET /v1/events

describe("GET /v1/events", () => {
  async function seed(org: TestOrg) {
    const out: EventObject[] = [];
    const plan: Array<[number, "session.processed" | "session.failed"]> = [
      [T0 + 10, "session.processed"],
      [T0 + 20, "session.failed"],
      [T0 + 20, "session.processed"],
      [T0 + 30, "session.processed"],
      [T0 + 40, "session.failed"],
    ];
    for (const [created, type] of plan) {
      out.push(await storeEvent(org, () => created, type, { id: `sess_${created}`, object: "session", metadata: { n: String(created) } }));
    }
    return out;
  }

  const ids = (body: any) => body.data.map((e: any) => e.id);
  const newestFirst = (events: EventObject[]) => [...events].sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : -1));

  it("lists the organization's events newest first, as stored", async () => {
    const org = await createOrg();
    const events = await seed(org);
    await seed(await createOrg());
    const body: any = await (await call("/v1/events", { key: org.key })).json();
    expect(body).toEqual({ object: "list", data: newestFirst(events), has_more: false, total_count: 5 });
  });

  it("filters by type and created range", async () => {
    const org = await createOrg();
    const events = await seed(org);
    const processed: any = await (await call("/v1/events?type=session.processed", { key: org.key })).json();
    expect(ids(processed)).toEqual(newestFirst(events.filter((e) => e.type === "session.processed")).map((e) => e.id));
    expect(processed.total_count).toBe(3);

    const range: any = await (await call(`/v1/events?created[gte]=${T0 + 20}&created[lte]=${T0 + 30}`, { key: org.key })).json();
    expect(ids(range)).toEqual(newestFirst(events.filter((e) => e.created >= T0 + 20 && e.created <= T0 + 30)).map((e) => e.id));
    expect(range.total_count).toBe(3);

    const both: any = await (await call(`/v1/events?type=session.failed&created%5Bgte%5D=${T0 + 30}`, { key: org.key })).json();
    expect(ids(both)).toEqual([events[4].id]);
    const none: any = await (await call("/v1/events?type=session.unknown", { key: org.key })).json();
    expect(none).toEqual({ object: "list", data: [], has_more: false, total_count: 0 });
  });

  it("pages with limit and starting_after, without gaps across equal timestamps", async () => {
    const org = await createOrg();
    const events = await seed(org);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const body: any = await (await call(`/v1/events?limit=2${cursor ? `&starting_after=${cursor}` : ""}`, { key: org.key })).json();
      expect(body.total_count).toBe(5);
      seen.push(...ids(body));
      if (!body.has_more) break;
      cursor = body.data.at(-1).id;
    }
    expect(seen).toEqual(newestFirst(events).map((e) => e.id));

    const filtered: any = await (await call(`/v1/events?type=session.processed&limit=1&starting_after=${seen[0]}`, { key: org.key })).json();
    expect(filtered.data.every((e: any) => e.type === "session.processed")).toBe(true);
    expect(filtered.has_more).toBe(true);
  });

  it("rejects bad parameters and other organizations' cursors", async () => {
    const org = await createOrg();
    const foreign = (await seed(await createOrg()))[0];
    await expectError(await call("/v1/events?limit=0", { key: org.key }), 400, "parameter_invalid", "limit");
    await expectError(await call("/v1/events?limit=101", { key: org.key }), 400, "parameter_invalid", "limit");
    await expectError(await call("/v1/events?created[gte]=yesterday", { key: org.key }), 400, "parameter_invalid", "created[gte]");
    await expectError(await call(`/v1/events?starting_after=${foreign.id}`, { key: org.key }), 400, "parameter_invalid", "starting_after");
    await expectError(await call("/v1/events"), 401, "missing_api_key");
  });
});

// ------------------------------------------------------ operator emit route

describe("POST /admin/v1/organizations/{id}/events", () => {
  it("emits an event that is stored and delivered like the job lifecycle's", async () => {
    const org = await createOrg();
    const { inbox } = await endpointWithInbox(org);
    const event = await admin("POST", `/admin/v1/organizations/${org.orgId}/events`, { type: "session.failed", object: { id: "sess_op", object: "session" } });
    expect(event).toMatchObject({ object: "event", type: "session.failed", data: { object: { id: "sess_op", object: "session" } } });
    const [delivery] = await waitForDeliveries(inbox, 1);
    expect(delivery.verified).toBe(true);
    expect(JSON.parse(delivery.body)).toEqual(event);
  });

  it("is for operators only and checks the organization", async () => {
    const org = await createOrg();
    const body = { type: "session.processed", object: {} };
    await expectError(await call(`/admin/v1/organizations/${org.orgId}/events`, { method: "POST", key: org.key, json: body }), 401, "invalid_operator_token");
    await expectError(
      await call("/admin/v1/organizations/org_doesnotexist00000000000/events", { method: "POST", json: body, headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` } }),
      404,
      "resource_missing",
    );
    await expectError(
      await call(`/admin/v1/organizations/${org.orgId}/events`, { method: "POST", json: { ...body, type: "made.up" }, headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` } }),
      400,
      "parameter_invalid",
      "type",
    );
  });
});
