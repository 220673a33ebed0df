import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { REPLAY_WINDOW_MS, type BeginResult, type IdempotencyKey } from "../../worker/durable-objects/idempotency-key";
import { ApiError } from "../../worker/errors";
import { buildServices } from "../../worker/middleware/services";
import { SubmitSessionBody } from "../../worker/schemas/session-create";
import { durableIdempotencyStore, IN_PROGRESS_WAIT_MS, requestFingerprint, runIdempotent, type IdempotencyStore } from "../../worker/services/idempotency";
import { submitSession, type SubmitDeps, type SubmitFaultPoint } from "../../worker/services/sessions";
import { admin, call, createOrg, expectError, setDnsAnswer, type TestOrg } from "./helpers";
import { insertUpload, jobsOf, sessionsOf, usageEventsOf, VIDEOS, videoUrl } from "./session-fixtures";

const submit = (org: TestOrg, json: unknown, key?: string) =>
  call("/v1/sessions", { method: "POST", key: org.key, json, headers: key === undefined ? {} : { "Idempotency-Key": key } });

describe("Idempotency-Key on POST /v1/sessions", () => {
  it("replays the original response (status, body, X-Service headers) with Idempotent-Replayed", async () => {
    const org = await createOrg({ creditsCents: 10_000 });
    const body = { source: { url: videoUrl(1, "replay") }, duration_seconds: 600, metadata: { a: "1" } };
    const first = await submit(org, body, "key-1");
    const firstBody = await first.text();
    expect(first.status).toBe(200);
    // The same body with its keys in another order is the same request.
    const again = await submit(org, { metadata: { a: "1" }, duration_seconds: 600, source: { url: videoUrl(1, "replay") } }, "key-1");
    expect(again.status).toBe(200);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.text()).toBe(firstBody);
    expect(again.headers.get("X-Service-Cost-Cents")).toBe(first.headers.get("X-Service-Cost-Cents"));
    expect(again.headers.get("X-Service-Available-Cents")).toBe(first.headers.get("X-Service-Available-Cents"));
    expect(again.headers.get("Request-Id")).not.toBe(first.headers.get("Request-Id"));
    expect(await sessionsOf(org.orgId)).toHaveLength(1);
    expect(await usageEventsOf(org.orgId)).toHaveLength(1);
  });

  it("answers 400 idempotency_key_reused to the same key with a different body", async () => {
    const org = await createOrg({ creditsCents: 10_000 });
    expect((await submit(org, { source: { url: videoUrl(1, "k2") }, duration_seconds: 60 }, "key-2")).status).toBe(200);
    await expectError(await submit(org, { source: { url: videoUrl(1, "k2") }, duration_seconds: 61 }, "key-2"), 400, "idempotency_key_reused");
    expect(await sessionsOf(org.orgId)).toHaveLength(1);
  });

  it("scopes keys to the organization", async () => {
    const a = await createOrg({ creditsCents: 10_000 });
    const b = await createOrg({ creditsCents: 10_000 });
    const ra: any = await (await submit(a, { source: { url: videoUrl(1, "scope-a") }, duration_seconds: 60 }, "shared")).json();
    const rb = await submit(b, { source: { url: videoUrl(1, "scope-b") }, duration_seconds: 60 }, "shared");
    expect(rb.status).toBe(200);
    expect(rb.headers.get("Idempotent-Replayed")).toBeNull();
    expect(((await rb.json()) as any).id).not.toBe(ra.id);
  });

  it("refuses keys over 255 characters with parameter_invalid on Idempotency-Key", async () => {
    const org = await createOrg({ creditsCents: 10_000 });
    await expectError(await submit(org, { source: { url: videoUrl() } }, "k".repeat(256)), 400, "parameter_invalid", "Idempotency-Key");
    expect((await submit(org, { source: { url: videoUrl() } }, "k".repeat(255))).status).toBe(200);
  });

  it("frees the key after a request error, so the same request can succeed later", async () => {
    const org = await createOrg({ creditsCents: 100 });
    const body = { source: { url: videoUrl(1, "402") }, duration_seconds: 3600 };
    await expectError(await submit(org, body, "key-402"), 402, "insufficient_credits");
    await admin("POST", `/admin/v1/organizations/${org.orgId}/credits`, { amount_cents: 1000 });
    const ok = await submit(org, body, "key-402");
    expect(ok.status).toBe(200);
    expect(ok.headers.get("Idempotent-Replayed")).toBeNull();
  });

  it("N parallel requests with one key create exactly one session; the others get its response or a retryable 409", async () => {
    const org = await createOrg({ creditsCents: 100_000 });
    const body = { source: { url: videoUrl(1, "parallel") }, duration_seconds: 600 };
    const results = await Promise.all(Array.from({ length: 10 }, () => submit(org, body, "one-key")));
    const ids = new Set<string>();
    let created = 0;
    for (const res of results) {
      if (res.status === 409) {
        await expectError(res, 409, "idempotency_key_in_progress");
        continue;
      }
      expect(res.status).toBe(200);
      if (res.headers.get("Idempotent-Replayed") !== "true") created += 1;
      ids.add(((await res.json()) as any).id);
    }
    expect(created).toBe(1);
    expect(ids.size).toBe(1);
    expect(await sessionsOf(org.orgId)).toHaveLength(1);
    expect(await usageEventsOf(org.orgId)).toHaveLength(1);
    expect(await jobsOf(org.orgId)).toHaveLength(1);
  });
});

describe("a DNS resolver that cannot answer", () => {
  it("answers 503 dns_unavailable with Retry-After, holds nothing, and is not stored: the retry with the same key submits", async () => {
    const org = await createOrg({ creditsCents: 10_000 });
    const host = "flaky-submit.example.test";
    await setDnsAnswer(env.DOH_URL!, host, { fault: "http_500" });
    const body = { source: { url: `https://${host}:${new URL(VIDEOS).port}/video/1800000000.mp4` } };
    const down = await submit(org, body, "dns-retry");
    expect(down.headers.get("Retry-After")).toBe("5");
    const error = await expectError(down, 503, "dns_unavailable", "source.url");
    expect(error.type).toBe("api_error");
    expect(error.message).toMatch(/retry/);
    expect(await sessionsOf(org.orgId)).toHaveLength(0);
    expect(await usageEventsOf(org.orgId)).toHaveLength(0);

    // The resolver is back (the name points at the local video host; loopback is allowed in these tests).
    await setDnsAnswer(env.DOH_URL!, host, { A: ["127.0.0.1"] });
    const ok = await submit(org, body, "dns-retry");
    expect(ok.status).toBe(200);
    expect(ok.headers.get("Idempotent-Replayed")).toBeNull();
    expect(ok.headers.get("X-Service-Cost-Cents")).toBe("250"); // 1,800 s from the link's Content-Length, read through the name
    const replay = await submit(org, body, "dns-retry");
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await sessionsOf(org.orgId)).toHaveLength(1);
  });
});

describe("recovery: a retry after a failure between any two steps completes what was left", () => {
  function depsFor(org: TestOrg, key: string, sent: unknown[], fault?: SubmitFaultPoint): SubmitDeps {
    const services = buildServices(env as never);
    return {
      db: services.db,
      queue: { send: async (message: unknown) => void sent.push(message) } as unknown as Queue<unknown>,
      http: services.http,
      now: services.now,
      objects: { signUrl: async (k) => `https://signed.test/${k}` },
      idempotency: durableIdempotencyStore(env as never, org.orgId, key),
      fault: (point) => {
        if (point === fault) throw new Error(`injected failure at ${point}`);
      },
    };
  }

  const points: SubmitFaultPoint[] = ["before_commit", "after_commit", "after_enqueue", "after_store"];
  for (const point of points) {
    it(`fails at ${point}, then the retry with the same key finishes with one session, one hold, one job, one message`, async () => {
      const org = await createOrg({ creditsCents: 10_000 });
      const raw = { source: { url: videoUrl(1, `fault-${point}`) }, duration_seconds: 900 };
      const input = SubmitSessionBody.parse(raw);
      const fingerprint = await requestFingerprint("POST", "/v1/sessions", input);
      const caller = { orgId: org.orgId, apiKeyId: org.keyId };
      const sent: unknown[] = [];

      await expect(submitSession(depsFor(org, `k-${point}`, sent, point), caller, input, fingerprint)).rejects.toThrow(`injected failure at ${point}`);
      const retry = await submitSession(depsFor(org, `k-${point}`, sent), caller, input, fingerprint);

      expect(retry.status).toBe(200);
      expect(retry.replayed).toBe(point === "after_store");
      const session = JSON.parse(retry.body);
      expect(retry.headers["X-Service-Cost-Cents"]).toBe("125");
      const sessions = await sessionsOf(org.orgId);
      expect(sessions.map((s) => s.id)).toEqual([session.id]);
      const events = await usageEventsOf(org.orgId);
      expect(events.map((e) => [e.sessionId, e.status, e.heldCents])).toEqual([[session.id, "held", 125]]);
      const jobs = await jobsOf(org.orgId);
      expect(jobs).toHaveLength(1);
      expect(sent).toEqual([{ type: "prepare", session_id: session.id, job_id: jobs[0].id }]);

      // And the HTTP endpoint, with the same key and body, replays the result.
      const replay = await submit(org, raw, `k-${point}`);
      expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
      expect(((await replay.json()) as any).id).toBe(session.id);
    });
  }

  it("a stalled attempt whose lock a retry took over: both commit the same ids, one session, no false 402", async () => {
    const org = await createOrg({ creditsCents: 10_000 });
    // An upload source: no dedupe key, so only the recovery ids can tell the two attempts apart.
    const uploadId = await insertUpload(org, { size: 90_000_000 });
    const raw = { source: { type: "upload", upload_id: uploadId } };
    const input = SubmitSessionBody.parse(raw);
    const fingerprint = await requestFingerprint("POST", "/v1/sessions", input);
    const caller = { orgId: org.orgId, apiKeyId: org.keyId };
    const sent: unknown[] = [];
    let reached!: () => void;
    const atCommit = new Promise<void>((r) => (reached = r));
    let resume!: () => void;
    const gate = new Promise<void>((r) => (resume = r));
    const stalled = { ...depsFor(org, "stalled", sent), fault: async (point: SubmitFaultPoint) => { if (point === "before_commit") { reached(); await gate; } } };
    const first = submitSession(stalled, caller, input, fingerprint);
    await atCommit;
    // The first attempt's lock lapses (as after 30 s); a retry takes the key over and finishes.
    await env.IDEMPOTENCY.get(env.IDEMPOTENCY.idFromName(`${org.orgId}::stalled`)).release();
    const retry = await submitSession(depsFor(org, "stalled", sent), caller, input, fingerprint);
    expect(retry.status).toBe(200);
    // The stalled attempt wakes up and commits the same ids: it finds its session, not a 402.
    resume();
    const late = await first;
    expect(JSON.parse(late.body).id).toBe(JSON.parse(retry.body).id);
    expect(await sessionsOf(org.orgId)).toHaveLength(1);
    expect(await usageEventsOf(org.orgId)).toHaveLength(1);
    const again = await submit(org, raw, "stalled");
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(((await again.json()) as any).id).toBe(JSON.parse(retry.body).id);
  });

  it("a retry through the endpoint completes an attempt that failed after its commit", async () => {
    const org = await createOrg({ creditsCents: 10_000 });
    const raw = { source: { url: videoUrl(1, "http-retry") }, duration_seconds: 900 };
    const input = SubmitSessionBody.parse(raw);
    const fingerprint = await requestFingerprint("POST", "/v1/sessions", input);
    const sent: unknown[] = [];
    await expect(submitSession(depsFor(org, "http-retry", sent, "after_commit"), { orgId: org.orgId, apiKeyId: org.keyId }, input, fingerprint)).rejects.toThrow();
    const [committed] = await sessionsOf(org.orgId);
    expect(sent).toHaveLength(0);

    const res = await submit(org, raw, "http-retry");
    expect(res.status).toBe(200);
    expect(res.headers.get("Idempotent-Replayed")).toBeNull();
    expect(res.headers.get("X-Service-Cost-Cents")).toBe("125");
    expect(((await res.json()) as any).id).toBe(committed.id);
    expect(await sessionsOf(org.orgId)).toHaveLength(1);
    expect(await usageEventsOf(org.orgId)).toHaveLength(1);
  });
});

describe("IdempotencyKey Durable Object", () => {
  const stubFor = (name: string) => env.IDEMPOTENCY.get(env.IDEMPOTENCY.idFromName(name)) as DurableObjectStub<IdempotencyKey>;

  it("locks a started key, releases it for a resumed retry that keeps its recovery points", async () => {
    const stub = stubFor("org_test::lock");
    expect(await stub.begin("fp", { sessionId: "sess_a" })).toEqual({ kind: "started", recovery: { sessionId: "sess_a" } });
    expect(await stub.begin("fp", { sessionId: "sess_b" })).toEqual({ kind: "in_progress" });
    expect(await stub.begin("other", { sessionId: "sess_b" })).toEqual({ kind: "mismatch" });
    await stub.checkpoint({ enqueued: true });
    await stub.release();
    expect(await stub.begin("fp", { sessionId: "sess_c" })).toEqual({ kind: "started", recovery: { sessionId: "sess_a", enqueued: true } });
    await stub.complete({ status: 200, headers: {}, body: "{}" });
    expect(await stub.begin("fp", {})).toEqual({ kind: "completed", response: { status: 200, headers: {}, body: "{}" } });
  });

  it("takes over a key whose holder never came back once the lock lapses", async () => {
    const stub = stubFor("org_test::crashed");
    const t0 = Date.now();
    await stub.begin("fp", { sessionId: "sess_a" }, t0);
    expect((await stub.begin("fp", {}, t0 + 1_000)).kind).toBe("in_progress");
    expect(await stub.begin("fp", {}, t0 + 31_000)).toEqual({ kind: "started", recovery: { sessionId: "sess_a" } });
  });

  it("forgets everything after 24 hours (alarm cleanup)", async () => {
    const stub = stubFor("org_test::alarm");
    await stub.begin("fp", { sessionId: "sess_a" });
    await stub.complete({ status: 200, headers: {}, body: "{}" });
    const alarmAt = await runInDurableObject(stub, (_obj, state) => state.storage.getAlarm());
    expect(alarmAt).toBeGreaterThan(Date.now() + REPLAY_WINDOW_MS - 60_000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await stub.begin("new", { sessionId: "sess_z" })).toEqual({ kind: "started", recovery: { sessionId: "sess_z" } });
  });
});

describe("runIdempotent, the one rule every idempotent create runs under", () => {
  /** A store in memory that records what the rule did with the key. */
  function memoryStore(begin: BeginResult[]) {
    const calls: string[] = [];
    const store: IdempotencyStore = {
      begin: async () => (calls.push("begin"), begin.shift() ?? { kind: "in_progress" }),
      checkpoint: async () => void calls.push("checkpoint"),
      complete: async () => void calls.push("complete"),
      release: async () => void calls.push("release"),
      forget: async () => void calls.push("forget"),
    };
    return { store, calls };
  }
  const answer = { status: 200, headers: {}, body: "{}" };

  it("stores the answer, then runs the after-store hook; a 4xx forgets the key and a 5xx releases it", async () => {
    const ok = memoryStore([{ kind: "started", recovery: { id: "a" } }]);
    const order: string[] = ok.calls;
    const done = await runIdempotent(ok.store, "fp", { id: "a" }, async () => answer, { afterStore: () => void order.push("afterStore") });
    expect(done.replayed).toBe(false);
    expect(ok.calls).toEqual(["begin", "complete", "afterStore"]);

    const refused = memoryStore([{ kind: "started", recovery: { id: "a" } }]);
    await expect(runIdempotent(refused.store, "fp", { id: "a" }, async () => { throw new ApiError("parameter_invalid", "no"); })).rejects.toThrow("no");
    expect(refused.calls).toEqual(["begin", "forget"]);

    const down = memoryStore([{ kind: "started", recovery: { id: "a" } }]);
    await expect(runIdempotent(down.store, "fp", { id: "a" }, async () => { throw new ApiError("dns_unavailable", "later"); })).rejects.toThrow("later");
    expect(down.calls).toEqual(["begin", "release"]);
  });

  it("waits for a running duplicate only as long as it is told to", async () => {
    const busy = memoryStore([]);
    const err = await runIdempotent(busy.store, "fp", { id: "a" }, async () => answer, { waitMs: 0 }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.code).toBe("idempotency_key_in_progress");
    // Told not to wait: one look at the key (the default would poll it for IN_PROGRESS_WAIT_MS).
    expect(busy.calls).toEqual(["begin"]);
    expect(IN_PROGRESS_WAIT_MS).toBeGreaterThan(0);
  });
});
