// Refusals that come before the request's body is read, against a real `wrangler dev`: a tus PATCH
// to a finished, a locked or a wrongly signed upload, a single PUT whose length or type is wrong,
// a request with a bad API key, runner token or operator token, an unknown route. Each carries a
// body of several MB and they are sent many at a time. Every answer must be the spec's error
// envelope with a Request-Id: a Worker that answers without reading the body makes `wrangler dev`
// drop the exchange (a bare `503 "Your worker restarted mid-request"` or a reset connection).
// On a starved CPU `wrangler dev`'s proxy also drops some requests before they reach the Worker
// (dev-proxy.ts says why); those are sent again, and only those: the Worker's own answers, the
// ones this test is about, are never resent.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendPastDevProxyDrops } from "./dev-proxy";
import { reserveUpload, startTestStack, type TestStack } from "./stack";

const BODY_BYTES = 4 * 1024 * 1024;
const ROUNDS = 6;
const CONCURRENCY = 24;

let stack: TestStack;
let apiKey: string;
let body: Buffer;

beforeAll(async () => {
  stack = await startTestStack();
  const org = await stack.ops.createOrganization("Refusals e2e");
  apiKey = (await stack.ops.createApiKey(org.id, "e2e")).key;
  body = randomBytes(BODY_BYTES);
});
afterAll(async () => {
  await stack?.destroy();
});

const reserve = (size: number) => reserveUpload(stack.baseUrl, apiKey, size);

interface Refusal {
  name: string;
  status: number;
  code: string;
  send: () => Promise<Response>;
}

interface Answer {
  name: string;
  outcome: string;
  /** Sends `wrangler dev`'s proxy dropped before this answer. */
  dropped: number;
}

/** What came back, as one comparable line: `status code request-id?` or the network error. */
async function answer(refusal: Refusal): Promise<Answer> {
  let dropped = 0;
  try {
    const delivered = await sendPastDevProxyDrops(refusal.send);
    const res = delivered.res;
    dropped = delivered.dropped;
    const text = await res.text();
    let code = "(not the envelope)";
    try {
      const parsed = JSON.parse(text) as { error?: { code?: string; message?: string } };
      if (typeof parsed.error?.code === "string" && typeof parsed.error.message === "string") code = parsed.error.code;
    } catch {
      code = `(not JSON: ${JSON.stringify(text.slice(0, 80))})`;
    }
    const id = /^req_/.test(res.headers.get("Request-Id") ?? "") ? "with Request-Id" : "without Request-Id";
    return { name: refusal.name, outcome: `${res.status} ${code} ${id}`, dropped };
  } catch (err) {
    const cause = (err as Error & { cause?: Error }).cause;
    return { name: refusal.name, outcome: `network error: ${(err as Error).message}${cause ? ` (${cause.message})` : ""}`, dropped };
  }
}

/** `bytes` as a stream of 64 KiB chunks: sent chunked, without a Content-Length. */
function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.subarray(at, at + 65_536));
      at += 65_536;
    },
  });
}

/** Runs `tasks` with at most `limit` in flight. */
async function pool<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

describe("refusals with a body the Worker never reads", () => {
  it("all answer in the error envelope with a Request-Id, however many arrive at once", async () => {
    const base = stack.baseUrl;
    const tus = { "Tus-Resumable": "1.0.0", "Content-Type": "application/offset+octet-stream" };

    // A finished upload: every further PATCH or PUT is refused.
    const finished = await reserve(1024);
    const { res: put } = await sendPastDevProxyDrops(() => fetch(finished.upload_url, { method: "PUT", body: randomBytes(1024), headers: { "Content-Type": "video/mp4" } }));
    expect(put.status).toBe(200);

    // A pending upload with a writer that holds its lock for the whole burst: a PATCH that trickles
    // a byte a second until it is told to stop.
    const locked = await reserve(64 * 1024 * 1024);
    const stopTrickles: (() => void)[] = [];
    const startTrickle = () => {
      let settled = false;
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new Uint8Array(1));
          const timer = setInterval(() => controller.enqueue(new Uint8Array(1)), 1000);
          await new Promise<void>((resolve) => stopTrickles.push(resolve));
          clearInterval(timer);
          controller.close();
        },
      });
      const answer = fetch(locked.upload_url, { method: "PATCH", headers: { ...tus, "Upload-Offset": "0" }, body, duplex: "half" } as RequestInit)
        .then((r) => r.body?.cancel())
        .catch(() => {})
        .finally(() => (settled = true));
      return { answer, settled: () => settled };
    };
    let writer = startTrickle();
    // Probed with a bodiless PUT, which is refused either way and never holds the lock across an
    // await: 423 once the writer holds it. A writer that lost the race to a probe is started again.
    for (let i = 0; ; i++) {
      const probe = await fetch(locked.upload_url, { method: "PUT", headers: { "Content-Type": "image/png" } });
      await probe.body?.cancel();
      if (probe.status === 423) break;
      if (i > 100) throw new Error(`the trickling writer never held the lock (last answer ${probe.status})`);
      if (writer.settled()) writer = startTrickle();
      await new Promise((r) => setTimeout(r, 100));
    }

    const pending = await reserve(2 * BODY_BYTES);
    const badSig = pending.upload_url.replace(/sig=[^&]+/, "sig=0000");
    const refusals: Refusal[] = [
      { name: "tus PATCH to a finished upload", status: 409, code: "upload_already_complete", send: () => fetch(finished.upload_url, { method: "PATCH", headers: { ...tus, "Upload-Offset": "1024" }, body }) },
      { name: "tus PATCH to a locked upload", status: 423, code: "upload_locked", send: () => fetch(locked.upload_url, { method: "PATCH", headers: { ...tus, "Upload-Offset": "1" }, body }) },
      { name: "tus PATCH at the wrong offset", status: 409, code: "upload_offset_mismatch", send: () => fetch(pending.upload_url, { method: "PATCH", headers: { ...tus, "Upload-Offset": "7" }, body }) },
      { name: "tus PATCH with a wrong signature", status: 403, code: "signature_invalid", send: () => fetch(badSig, { method: "PATCH", headers: { ...tus, "Upload-Offset": "0" }, body }) },
      { name: "tus PATCH without Tus-Resumable", status: 412, code: "tus_version_unsupported", send: () => fetch(pending.upload_url, { method: "PATCH", headers: { "Content-Type": "application/offset+octet-stream", "Upload-Offset": "0" }, body }) },
      { name: "PUT to a finished upload", status: 409, code: "upload_already_complete", send: () => fetch(finished.upload_url, { method: "PUT", headers: { "Content-Type": "video/mp4" }, body }) },
      { name: "PUT longer than reserved", status: 400, code: "upload_size_mismatch", send: () => fetch(pending.upload_url, { method: "PUT", headers: { "Content-Type": "video/mp4" }, body: Buffer.concat([body, body, body]) }) },
      // Refused midway, on a fresh upload each (they hold its lock while they read).
      { name: "tus PATCH past Upload-Length", status: 413, code: "payload_too_large", send: async () => fetch((await reserve(1024 * 1024)).upload_url, { method: "PATCH", headers: { ...tus, "Upload-Offset": "0" }, body }) },
      { name: "PUT without Content-Length, longer than reserved", status: 400, code: "upload_size_mismatch", send: async () => fetch((await reserve(1024 * 1024)).upload_url, { method: "PUT", headers: { "Content-Type": "video/mp4" }, body: streamOf(body), duplex: "half" } as RequestInit) },
      { name: "PUT of the wrong type", status: 415, code: "upload_content_type_mismatch", send: () => fetch(pending.upload_url, { method: "PUT", headers: { "Content-Type": "image/png" }, body }) },
      { name: "POST /v1/sessions with a bad API key", status: 401, code: "invalid_api_key", send: () => fetch(`${base}/v1/sessions`, { method: "POST", headers: { Authorization: `Bearer hk_stg_${"x".repeat(32)}`, "Content-Type": "application/json" }, body }) },
      { name: "POST /v1/uploads without an API key", status: 401, code: "missing_api_key", send: () => fetch(`${base}/v1/uploads`, { method: "POST", headers: { "Content-Type": "application/json" }, body }) },
      { name: "POST /runner/v1/jobs/claim with a bad token", status: 401, code: "invalid_runner_token", send: () => fetch(`${base}/runner/v1/jobs/claim`, { method: "POST", headers: { Authorization: "Bearer hr_nope", "Content-Type": "application/json" }, body }) },
      { name: "POST /admin/v1/organizations with a bad token", status: 401, code: "invalid_operator_token", send: () => fetch(`${base}/admin/v1/organizations`, { method: "POST", headers: { Authorization: "Bearer op_nope", "Content-Type": "application/json" }, body }) },
      { name: "POST to an unknown route", status: 404, code: "route_not_found", send: () => fetch(`${base}/v1/nothing-here`, { method: "POST", headers: { Authorization: `Bearer ${apiKey}` }, body }) },
    ];

    const tasks = Array.from({ length: ROUNDS }, () => refusals.map((r) => () => answer(r))).flat();
    const answers = await pool(tasks, CONCURRENCY);
    for (const stop of stopTrickles) stop();
    await writer.answer;

    // Expected: each refusal's own status and code, in the envelope, with a Request-Id.
    const expected = new Map(refusals.map((r) => [r.name, r]));
    const wrong = answers.filter((a) => {
      const r = expected.get(a.name)!;
      const [status, code, ...rest] = a.outcome.split(" ");
      return Number(status) !== r.status || (r.code !== "" && code !== r.code) || code.startsWith("(") || rest.join(" ") !== "with Request-Id";
    });
    const dropped = answers.reduce((n, a) => n + a.dropped, 0);
    if (dropped > 0) console.info(`wrangler dev's proxy dropped ${dropped} of ${answers.length + dropped} sends before they reached the Worker; they were sent again`);
    const summary = wrong.map((a) => `${a.name}: ${a.outcome}`);
    expect(summary, `${wrong.length} of ${answers.length} refusals came back wrong`).toEqual([]);
  });
});
