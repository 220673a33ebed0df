// A refusal reads the rest of the request's body before it answers (worker/lib/request-body.ts says
// why; test/e2e/refusals.test.ts shows what goes wrong under `wrangler dev` otherwise). Here each
// body is a stream that counts what the Worker pulled from it.
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { BASE, call, createOrg, expectError, OPERATOR_TOKEN, type TestOrg } from "./helpers";

const CHUNK = 64 * 1024;
const BODY_BYTES = 3 * 1024 * 1024;

/** A body of `bytes` zero bytes in 64 KiB chunks, and how many of them the reader has pulled. */
function countedBody(bytes = BODY_BYTES) {
  const pulled = { bytes: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.bytes >= bytes) return controller.close();
      const size = Math.min(CHUNK, bytes - pulled.bytes);
      pulled.bytes += size;
      controller.enqueue(new Uint8Array(size));
    },
  });
  return { stream, pulled };
}

function send(url: string, init: RequestInit): Promise<Response> {
  return (exports as unknown as { default: Fetcher }).default.fetch(new Request(url, { ...init, duplex: "half" } as RequestInit));
}

let org: TestOrg;
let finishedUrl: string;
/** Uploads of 1 MiB + 1000 bytes, one per test that writes to one. */
const pendingUrls: string[] = [];
const PENDING_BYTES = 1024 * 1024 + 1000;

async function reserve(size: number) {
  const res = await call("/v1/uploads", { method: "POST", key: org.key, json: { content_type: "video/mp4", size } });
  return ((await res.json()) as { upload_url: string }).upload_url;
}

async function pendingUrl() {
  pendingUrls.push(await reserve(PENDING_BYTES));
  return pendingUrls.at(-1)!;
}

beforeAll(async () => {
  org = await createOrg();
  finishedUrl = await reserve(16);
  expect((await send(finishedUrl, { method: "PUT", body: new Uint8Array(16), headers: { "Content-Type": "video/mp4" } })).status).toBe(200);
});

const tus = { "Tus-Resumable": "1.0.0", "Content-Type": "application/offset+octet-stream" };

describe("a refused request's body is read to its end before the answer", () => {
  const refusals: { name: string; status: number; code: string; send: (body: ReadableStream<Uint8Array>) => Promise<Response> }[] = [
    { name: "a bad API key", status: 401, code: "invalid_api_key", send: (body) => send(`${BASE}/v1/sessions`, { method: "POST", body, headers: { Authorization: `Bearer hk_stg_${"x".repeat(32)}`, "Content-Type": "application/json" } }) },
    { name: "a bad operator token", status: 401, code: "invalid_operator_token", send: (body) => send(`${BASE}/admin/v1/organizations`, { method: "POST", body, headers: { Authorization: "Bearer op_wrong", "Content-Type": "application/json" } }) },
    { name: "an unknown route", status: 404, code: "route_not_found", send: (body) => send(`${BASE}/v1/nothing`, { method: "POST", body, headers: { Authorization: `Bearer ${org.key}` } }) },
    { name: "a wrong method", status: 405, code: "method_not_allowed", send: (body) => send(`${BASE}/admin/v1/organizations`, { method: "PUT", body, headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` } }) },
    { name: "a tus PATCH to a finished upload", status: 409, code: "upload_already_complete", send: (body) => send(finishedUrl, { method: "PATCH", body, headers: { ...tus, "Upload-Offset": "16" } }) },
    { name: "a tus PATCH at the wrong offset", status: 409, code: "upload_offset_mismatch", send: async (body) => send(await pendingUrl(), { method: "PATCH", body, headers: { ...tus, "Upload-Offset": "5" } }) },
    { name: "a tus PATCH past Upload-Length", status: 413, code: "payload_too_large", send: async (body) => send(await pendingUrl(), { method: "PATCH", body, headers: { ...tus, "Upload-Offset": "0" } }) },
    { name: "a tus PATCH with a wrong signature", status: 403, code: "signature_invalid", send: async (body) => send((await pendingUrl()).replace(/sig=[^&]+/, "sig=x"), { method: "PATCH", body, headers: { ...tus, "Upload-Offset": "0" } }) },
    { name: "a PUT to a finished upload", status: 409, code: "upload_already_complete", send: (body) => send(finishedUrl, { method: "PUT", body, headers: { "Content-Type": "video/mp4" } }) },
    { name: "a PUT of the wrong type", status: 415, code: "upload_content_type_mismatch", send: async (body) => send(await pendingUrl(), { method: "PUT", body, headers: { "Content-Type": "image/png" } }) },
    { name: "a PUT longer than reserved", status: 400, code: "upload_size_mismatch", send: async (body) => send(await pendingUrl(), { method: "PUT", body, headers: { "Content-Type": "video/mp4" } }) },
  ];

  for (const r of refusals) {
    it(`after ${r.name}`, async () => {
      const { stream, pulled } = countedBody();
      await expectError(await r.send(stream), r.status, r.code);
      expect(pulled.bytes).toBe(BODY_BYTES);
    });
  }

  it("a refused write leaves its upload open to the next one", async () => {
    // Each refused PATCH or PUT above had an upload of its own; all still take their bytes. The
    // PATCH past Upload-Length kept the whole 64 KiB chunks that fitted (1 MiB), the others none.
    for (const url of pendingUrls) {
      const head = await send(url, { method: "HEAD", headers: { "Tus-Resumable": "1.0.0" } });
      const offset = Number(head.headers.get("Upload-Offset"));
      expect([0, 1024 * 1024]).toContain(offset);
      const res = await send(url, { method: "PATCH", body: new Uint8Array(PENDING_BYTES - offset), headers: { ...tus, "Upload-Offset": String(offset) } });
      expect(res.status).toBe(204);
      expect(res.headers.get("Upload-Offset")).toBe(String(PENDING_BYTES));
    }
  });
});
