// Webhooks against a real `wrangler dev`: registration, the test event, and
// queue delivery, received by a Node receiver that verifies every signature
// with the official `stripe` package.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebhookReceiver, type ReceivedDelivery, type WebhookReceiver } from "../support/webhook-receiver";
import { startTestStack, type TestStack } from "./stack";

let stack: TestStack;
let receiver: WebhookReceiver;
let key: string;
let orgId: string;

beforeAll(async () => {
  [stack, receiver] = await Promise.all([startTestStack(), startWebhookReceiver()]);
  const org = await stack.ops.createOrganization("Webhooks e2e");
  orgId = org.id;
  key = (await stack.ops.createApiKey(org.id, "e2e")).key;
});
afterAll(async () => {
  await stack?.destroy();
  await receiver?.close();
});

async function api<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${stack.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as T };
}

async function register(inbox: string) {
  const created = await api("POST", "/v1/webhook_endpoints", { url: `${receiver.url}/in/${inbox}` });
  expect(created.status).toBe(200);
  receiver.inbox(inbox).config = { secret: created.body.secret };
  return created.body as { id: string; secret: string };
}

async function waitFor(inbox: string, count: number): Promise<ReceivedDelivery[]> {
  for (let i = 0; i < 600; i++) {
    const got = receiver.inbox(inbox).received;
    if (got.length >= count) return got;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`inbox ${inbox} did not get ${count} deliveries`);
}

describe("webhooks on the local stack", () => {
  it("signs the test event so that stripe.webhooks.constructEvent accepts it", async () => {
    const endpoint = await register("test-event");
    const res = await api("POST", `/v1/webhook_endpoints/${endpoint.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: "webhook_test", delivered: true, status_code: 200, error: null });
    const [delivery] = receiver.inbox("test-event").received;
    expect(delivery.verifyError).toBeNull();
    expect(JSON.parse(delivery.body)).toMatchObject({ id: res.body.event, type: "webhook_endpoint.test" });
  });

  it("delivers emitted events through the queue, and stops delivering to a deleted endpoint", async () => {
    await register("kept");
    const dropped = await register("dropped");
    const first = await stack.ops.request("POST", `/admin/v1/organizations/${orgId}/events`, {
      type: "session.processed",
      object: { id: "sess_e2e1", object: "session", metadata: { court: "3" } },
    });
    for (const inbox of ["kept", "dropped"]) {
      const [delivery] = await waitFor(inbox, 1);
      expect(delivery.verifyError).toBeNull();
      expect(delivery.verified).toBe(true);
      expect(JSON.parse(delivery.body)).toEqual(first);
    }
    const listed = await api("GET", "/v1/events?type=session.processed");
    expect(listed.body.data[0]).toEqual(first);

    expect((await api("DELETE", `/v1/webhook_endpoints/${dropped.id}`)).body).toEqual({ id: dropped.id, object: "webhook_endpoint", deleted: true });
    const second = await stack.ops.request("POST", `/admin/v1/organizations/${orgId}/events`, { type: "session.failed", object: { id: "sess_e2e2" } });
    const got = await waitFor("kept", 2);
    expect(got[1].eventId).toBe(second.id);
    expect(receiver.inbox("dropped").received).toHaveLength(1);
  });

  it("refuses to register private destinations", async () => {
    for (const url of ["https://10.0.0.1/hooks", "https://169.254.169.254/latest", "http://93.184.216.34/hooks", "https://user:pw@example.com/hooks"]) {
      const res = await api("POST", "/v1/webhook_endpoints", { url });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: "url_not_allowed", param: "url" });
    }
  });
});
