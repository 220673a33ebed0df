import { env, exports } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { uploads } from "../../drizzle/schema";
import type { UploadState } from "../../worker/durable-objects/upload-state";
import worker from "../../worker/index";
import { buildServices } from "../../worker/middleware/services";
import { MAX_CHUNK_BYTES, PART_SIZE } from "../../worker/lib/tus";
import { tusTargetStub } from "../../worker/services/tus-targets";
import { expireStaleUploads } from "../../worker/services/uploads";
import { call, createOrg, expectError } from "./helpers";

const MiB = 1024 * 1024;

function randomBytes(length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let at = 0; at < length; at += 65536) crypto.getRandomValues(out.subarray(at, Math.min(length, at + 65536)));
  return out;
}

async function sha256(bytes: ArrayBuffer | Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Requests to a signed upload URL go through the Worker's fetch too, without an API key. */
function send(url: string, init: RequestInit = {}): Promise<Response> {
  return (exports as unknown as { default: Fetcher }).default.fetch(new Request(url, init));
}

async function reserve(key: string, body: Record<string, unknown>) {
  const res = await call("/v1/uploads", { method: "POST", key, json: body });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string; object: string; upload_url: string; content_type: string; size: number; upload_method: string; chunk_size: number; expires_in_seconds: number };
}

function patch(url: string, offset: number, bytes: Uint8Array, headers: Record<string, string> = {}) {
  return send(url, {
    method: "PATCH",
    body: bytes,
    headers: { "Tus-Resumable": "1.0.0", "Content-Type": "application/offset+octet-stream", "Upload-Offset": String(offset), ...headers },
  });
}

async function uploadRow(id: string) {
  return buildServices(env).db.select().from(uploads).where(eq(uploads.id, id)).get();
}

describe("POST /v1/uploads", () => {
  it("reserves an upload for the caller's organization and returns a signed tus URL", async () => {
    const org = await createOrg();
    const up = await reserve(org.key, { content_type: "video/mp4", size: 1234, filename: "game.mp4" });
    expect(up).toEqual({
      id: expect.stringMatching(/^up_[0-9A-Za-z]{24}$/),
      object: "upload",
      upload_url: expect.stringMatching(/^https:\/\/api\.test\/uploads\/v1\/up_[0-9A-Za-z]{24}\?sig=[\w-]{43}$/),
      content_type: "video/mp4",
      size: 1234,
      upload_method: "put",
      chunk_size: 52428800,
      expires_in_seconds: 604800,
    });
    expect(up.upload_url).toContain(up.id);
    const row = await uploadRow(up.id);
    expect(row).toMatchObject({ orgId: org.orgId, status: "pending", size: 1234, filename: "game.mp4", r2Key: `uploads/${org.orgId}/${up.id}` });
    expect(row!.expiresAt - row!.created).toBe(604800);
  });

  it("accepts MOV and the 10 GB maximum, with no filename", async () => {
    const org = await createOrg();
    const up = await reserve(org.key, { content_type: "video/quicktime", size: 10_000_000_000 });
    expect(up.size).toBe(10_000_000_000);
  });

  it.each([
    [{ size: 100 }, "content_type"],
    [{ content_type: "video/mp4" }, "size"],
    [{ content_type: "video/webm", size: 100 }, "content_type"],
    [{ content_type: "video/mp4", size: 0 }, "size"],
    [{ content_type: "video/mp4", size: 10_000_000_001 }, "size"],
    [{ content_type: "video/mp4", size: 1.5 }, "size"],
    [{ content_type: "video/mp4", size: "100" }, "size"],
    [{ content_type: "video/mp4", size: 100, filename: "" }, "filename"],
    [{ content_type: "video/mp4", size: 100, filename: "x".repeat(256) }, "filename"],
    [{ content_type: "video/mp4", size: 100, filename: "a\nb.mp4" }, "filename"],
  ])("refuses %j with parameter_invalid on %s", async (body, param) => {
    const org = await createOrg();
    await expectError(await call("/v1/uploads", { method: "POST", key: org.key, json: body }), 400, "parameter_invalid", param);
  });

  it("says which method sends the file: tus with its chunk size above the 100 MB single-PUT limit, put up to it (issue 22, point 7)", async () => {
    const org = await createOrg();
    const methodFor = async (size: number) => {
      const up = await reserve(org.key, { content_type: "video/mp4", size });
      return { upload_method: up.upload_method, chunk_size: up.chunk_size };
    };
    expect(await methodFor(150_000_000)).toEqual({ upload_method: "tus", chunk_size: 50 * MiB });
    expect(await methodFor(5_000_000)).toEqual({ upload_method: "put", chunk_size: 50 * MiB });
    expect(await methodFor(100_000_000)).toEqual({ upload_method: "put", chunk_size: 50 * MiB });
    expect(await methodFor(100_000_001)).toEqual({ upload_method: "tus", chunk_size: 50 * MiB });
    // The chunk size it names fits under the PATCH limit, and the method it names is the one the upload URL takes.
    expect(50 * MiB).toBeLessThan(MAX_CHUNK_BYTES);
    const atLimit = await reserve(org.key, { content_type: "video/mp4", size: 100_000_001 });
    await expectError(await send(atLimit.upload_url, { method: "PUT", body: randomBytes(16), headers: { "Content-Type": "video/mp4" } }), 413, "payload_too_large");
  });

  it("needs an API key", async () => {
    await expectError(await call("/v1/uploads", { method: "POST", json: { content_type: "video/mp4", size: 1 } }), 401, "missing_api_key");
  });

  it("is in the OpenAPI document as the Upload component, and the upload URLs are not", async () => {
    const doc: any = await (await call("/v1/openapi.json")).json();
    expect(doc.paths["/v1/uploads"].post.responses["200"].content["application/json"].schema.$ref).toBe("#/components/schemas/Upload");
    expect(doc.components.schemas.Upload.required).toEqual(expect.arrayContaining(["id", "upload_url", "expires_in_seconds"]));
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith("/v1/"))).toEqual([]);
  });
});

describe("single PUT to the upload URL", () => {
  it("stores the file and completes the upload", async () => {
    const org = await createOrg();
    const bytes = randomBytes(300_000);
    const up = await reserve(org.key, { content_type: "video/mp4", size: bytes.byteLength });
    const res = await send(up.upload_url, { method: "PUT", body: bytes, headers: { "Content-Type": "video/mp4" } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: up.id, object: "upload", status: "complete", size: bytes.byteLength, content_type: "video/mp4" });
    const object = await env.MEDIA.get(`uploads/${org.orgId}/${up.id}`);
    expect(object!.httpMetadata?.contentType).toBe("video/mp4");
    expect(await sha256(await object!.arrayBuffer())).toBe(await sha256(bytes));
    const row = await uploadRow(up.id);
    expect(row).toMatchObject({ status: "complete" });
    expect(row!.completedAt).toBeTypeOf("number");

    const head = await send(up.upload_url, { method: "HEAD", headers: { "Tus-Resumable": "1.0.0" } });
    expect(head.headers.get("Upload-Offset")).toBe(String(bytes.byteLength));
    await expectError(await send(up.upload_url, { method: "PUT", body: bytes, headers: { "Content-Type": "video/mp4" } }), 409, "upload_already_complete");
  });

  it("accepts a Content-Type with parameters and in any case", async () => {
    const org = await createOrg();
    const up = await reserve(org.key, { content_type: "video/quicktime", size: 10 });
    const res = await send(up.upload_url, { method: "PUT", body: randomBytes(10), headers: { "Content-Type": "Video/QuickTime; foo=bar" } });
    expect(res.status).toBe(200);
  });

  it("refuses a different Content-Type and stores nothing", async () => {
    const org = await createOrg();
    const up = await reserve(org.key, { content_type: "video/mp4", size: 10 });
    const err = await expectError(await send(up.upload_url, { method: "PUT", body: randomBytes(10), headers: { "Content-Type": "video/quicktime" } }), 415, "upload_content_type_mismatch");
    expect(err.message).toContain("video/mp4");
    expect(await env.MEDIA.head(`uploads/${org.orgId}/${up.id}`)).toBeNull();
    expect((await uploadRow(up.id))!.status).toBe("pending");
  });

  it("refuses a body shorter or longer than the reserved size and stores nothing", async () => {
    const org = await createOrg();
    const up = await reserve(org.key, { content_type: "video/mp4", size: 1000 });
    const short = await expectError(await send(up.upload_url, { method: "PUT", body: randomBytes(999), headers: { "Content-Type": "video/mp4" } }), 400, "upload_size_mismatch");
    expect(short.message).toMatch(/1000/);
    await expectError(await send(up.upload_url, { method: "PUT", body: randomBytes(1001), headers: { "Content-Type": "video/mp4" } }), 400, "upload_size_mismatch");
    expect(await env.MEDIA.head(`uploads/${org.orgId}/${up.id}`)).toBeNull();
    expect((await uploadRow(up.id))!.status).toBe("pending");
  });

  it("refuses a streamed body without Content-Length whose length is wrong, and stores nothing", async () => {
    const org = await createOrg();
    const up = await reserve(org.key, { content_type: "video/mp4", size: 1000 });
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(randomBytes(600));
        controller.close();
      },
    });
    const res = await send(up.upload_url, { method: "PUT", body: stream, headers: { "Content-Type": "video/mp4" }, duplex: "half" } as RequestInit);
    const err = await expectError(res, 400, "upload_size_mismatch");
    expect(err.message).toContain("600");
    expect(await env.MEDIA.head(`uploads/${org.orgId}/${up.id}`)).toBeNull();
  });

  it("points files over 100 MB to tus with a chunk size", async () => {
    const org = await createOrg();
    const up = await reserve(org.key, { content_type: "video/mp4", size: 200_000_000 });
    const err = await expectError(await send(up.upload_url, { method: "PUT", body: randomBytes(16), headers: { "Content-Type": "video/mp4" } }), 413, "payload_too_large");
    expect(err.message).toMatch(/chunks of 50 MiB/);
  });
});

describe("tus on the upload URL", () => {
  it("advertises the protocol on OPTIONS, with CORS for browsers", async () => {
    const org = await createOrg();
    const up = await reserve(org.key, { content_type: "video/mp4", size: 10 });
    const res = await send(up.upload_url, { method: "OPTIONS", headers: { Origin: "https://app.example", "Access-Control-Request-Method": "PATCH" } });
    expect(res.status).toBe(204);
    expect(res.headers.get("Tus-Version")).toBe("1.0.0");
    expect(res.headers.get("Tus-Extension")).toBe("termination,expiration");
    expect(res.headers.get("Tus-Max-Size")).toBe("10000000000");
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(res.headers.get("Access-Control-Allow-Methods")).toContain("PATCH");
    expect(res.headers.get("Access-Control-Allow-Headers")).toContain("Upload-Offset");
  });

  it("tus answers, successes and refusals, carry X-Request-ID equal to Request-Id (tus-js-client quotes it in its errors)", async () => {
    const org = await createOrg();
    const up = await reserve(org.key, { content_type: "video/mp4", size: 10 });
    const answers = [
      await send(up.upload_url, { method: "HEAD", headers: { "Tus-Resumable": "1.0.0" } }),
      await patch(up.upload_url, 3, randomBytes(2)), // 409: wrong offset
      await send(up.upload_url.split("?")[0], { method: "HEAD", headers: { "Tus-Resumable": "1.0.0" } }), // 403: no signature
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 409, 403]);
    for (const res of answers) {
      expect(res.headers.get("Request-Id")).toMatch(/^req_/);
      expect(res.headers.get("X-Request-ID")).toBe(res.headers.get("Request-Id"));
      expect(res.headers.get("Access-Control-Expose-Headers")).toContain("X-Request-ID");
      await res.arrayBuffer();
    }
  });

  it("takes chunks that do not line up with R2 parts, and resumes from HEAD", async () => {
    const org = await createOrg();
    const bytes = randomBytes(PART_SIZE * 2 + 123_457); // three R2 parts, the last one short
    const up = await reserve(org.key, { content_type: "video/mp4", size: bytes.byteLength });
    const cuts = [0, 3 * MiB + 1, 4 * MiB + 17, 7 * MiB, 8 * MiB + 5, bytes.byteLength];
    for (let i = 0; i + 1 < cuts.length; i++) {
      const head = await send(up.upload_url, { method: "HEAD", headers: { "Tus-Resumable": "1.0.0" } });
      expect(head.status).toBe(200);
      expect(head.headers.get("Upload-Offset")).toBe(String(cuts[i]));
      expect(head.headers.get("Upload-Length")).toBe(String(bytes.byteLength));
      expect(head.headers.get("Cache-Control")).toBe("no-store");
      expect(new Date(head.headers.get("Upload-Expires")!).getTime()).toBeGreaterThan(Date.now());
      const res = await patch(up.upload_url, cuts[i], bytes.slice(cuts[i], cuts[i + 1]));
      expect(res.status).toBe(204);
      expect(res.headers.get("Upload-Offset")).toBe(String(cuts[i + 1]));
      expect(res.headers.get("Tus-Resumable")).toBe("1.0.0");
    }
    const object = await env.MEDIA.get(`uploads/${org.orgId}/${up.id}`);
    expect(object!.size).toBe(bytes.byteLength);
    expect(await sha256(await object!.arrayBuffer())).toBe(await sha256(bytes));
    expect((await uploadRow(up.id))!.status).toBe("complete");
  });

  it("completes a file smaller than one R2 part", async () => {
    const org = await createOrg();
    const bytes = randomBytes(1000);
    const up = await reserve(org.key, { content_type: "video/mp4", size: 1000 });
    expect((await patch(up.upload_url, 0, bytes.slice(0, 400))).status).toBe(204);
    expect((await patch(up.upload_url, 400, bytes.slice(400))).headers.get("Upload-Offset")).toBe("1000");
    const object = await env.MEDIA.get(`uploads/${org.orgId}/${up.id}`);
    expect(await sha256(await object!.arrayBuffer())).toBe(await sha256(bytes));
  });

  it("completes an upload whose last PATCH brought every byte plus extra ones (413, nothing left pending)", async () => {
    const org = await createOrg();
    const bytes = randomBytes(10);
    const up = await reserve(org.key, { content_type: "video/mp4", size: 10 });
    // Chunked, no Content-Length: the extra bytes are only found once the file's own have arrived.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
        controller.enqueue(randomBytes(5));
        controller.close();
      },
    });
    const res = await send(up.upload_url, {
      method: "PATCH",
      body,
      duplex: "half",
      headers: { "Tus-Resumable": "1.0.0", "Content-Type": "application/offset+octet-stream", "Upload-Offset": "0" },
    } as RequestInit);
    expect((await expectError(res, 413, "payload_too_large")).message).toMatch(/offset 10 were kept/);
    // Complete at once, without a HEAD to nudge it.
    expect((await uploadRow(up.id))!.status).toBe("complete");
    const object = await env.MEDIA.get(`uploads/${org.orgId}/${up.id}`);
    expect(await sha256(await object!.arrayBuffer())).toBe(await sha256(bytes));
  });

  it("refuses a wrong offset with 409 and the server's offset", async () => {
    const org = await createOrg();
    const up = await reserve(org.key, { content_type: "video/mp4", size: 100 });
    expect((await patch(up.upload_url, 0, randomBytes(40))).status).toBe(204);
    const res = await patch(up.upload_url, 30, randomBytes(10));
    expect(res.headers.get("Upload-Offset")).toBe("40");
    await expectError(res, 409, "upload_offset_mismatch");
    await expectError(await patch(up.upload_url, 60, randomBytes(10)), 409, "upload_offset_mismatch");
  });

  it("refuses bytes past Upload-Length, a chunk over the PATCH limit, and non-tus requests", async () => {
    const org = await createOrg();
    const up = await reserve(org.key, { content_type: "video/mp4", size: 200_000_000 });
    // Refused on its Content-Length, before any byte is read.
    const endless = new ReadableStream<Uint8Array>({ pull: (controller) => controller.enqueue(new Uint8Array(MiB)) });
    const res = await send(up.upload_url, {
      method: "PATCH",
      body: endless,
      duplex: "half",
      headers: { "Tus-Resumable": "1.0.0", "Content-Type": "application/offset+octet-stream", "Upload-Offset": "0", "Content-Length": String(MAX_CHUNK_BYTES + 1) },
    } as RequestInit);
    const big = await expectError(res, 413, "payload_too_large");
    expect(big.message).toMatch(/at most 90 MiB .*chunks of 50 MiB/);

    const small = await reserve(org.key, { content_type: "video/mp4", size: 10 });
    await expectError(await patch(small.upload_url, 0, randomBytes(11)), 413, "payload_too_large");
    await expectError(await patch(small.upload_url, 0, randomBytes(5), { "Tus-Resumable": "0.2.2" }), 412, "tus_version_unsupported");
    await expectError(await patch(small.upload_url, 0, randomBytes(5), { "Content-Type": "video/mp4" }), 415, "upload_content_type_mismatch");
    await expectError(await patch(small.upload_url, 0, randomBytes(5), { "Upload-Offset": "-1" }), 400, "parameter_invalid", "Upload-Offset");
    await expectError(await send(small.upload_url, { method: "GET" }), 405, "method_not_allowed");
  });

  it("lets one request write at a time: a second PATCH meanwhile gets 423, which tus clients retry", async () => {
    const org = await createOrg();
    /** A PATCH that sends 10 bytes, then holds its body open (and the upload's lock) until told. */
    const slowPatch = (url: string) => {
      let writer!: ReadableStreamDefaultController<Uint8Array>;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          writer = controller;
          controller.enqueue(randomBytes(10));
        },
      });
      const response = send(url, {
        method: "PATCH",
        body,
        duplex: "half",
        headers: { "Tus-Resumable": "1.0.0", "Content-Type": "application/offset+octet-stream", "Upload-Offset": "0" },
      } as RequestInit);
      return { writer, response };
    };
    /**
     * On a fresh upload, polls with empty PATCHes (which change nothing) until one meets the slow
     * PATCH's lock. A poll can itself hold the lock at the moment the slow PATCH arrives, which then
     * gets the 423 and ends: start it again. Once in CI 500 polls (30 s on a loaded machine) never met
     * the lock; a fresh upload is then tried, up to three, so a stall of the test's own streamed
     * request does not fail the case, while a server that never locks still does.
     */
    const meetLock = async () => {
      const up = await reserve(org.key, { content_type: "video/mp4", size: 100 });
      let first = slowPatch(up.upload_url);
      for (let i = 0; i < 200; i++) {
        const second = await patch(up.upload_url, 0, new Uint8Array(0));
        if (second.status === 423) return { first, second };
        await second.arrayBuffer();
        const ended = await Promise.race([first.response.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 10))]);
        if (ended) first = slowPatch(up.upload_url);
      }
      first.writer.close();
      await first.response;
      return null;
    };
    let met: Awaited<ReturnType<typeof meetLock>> = null;
    for (let attempt = 0; attempt < 3 && !met; attempt++) met = await meetLock();
    expect(met, "an empty PATCH met the slow PATCH's lock").not.toBeNull();
    const { first, second } = met!;
    await expectError(second, 423, "upload_locked");
    first.writer.enqueue(randomBytes(20));
    first.writer.close();
    const done = await first.response;
    expect(done.status).toBe(204);
    expect(done.headers.get("Upload-Offset")).toBe("30");
  }, 120_000);

  it("terminates an unfinished upload with DELETE", async () => {
    const org = await createOrg();
    const up = await reserve(org.key, { content_type: "video/mp4", size: PART_SIZE + 10 });
    expect((await patch(up.upload_url, 0, randomBytes(PART_SIZE + 1))).status).toBe(204);
    const res = await send(up.upload_url, { method: "DELETE", headers: { "Tus-Resumable": "1.0.0" } });
    expect(res.status).toBe(204);
    expect((await send(up.upload_url, { method: "HEAD" })).status).toBe(404); // HEAD answers carry no body
    await expectError(await patch(up.upload_url, PART_SIZE + 1, randomBytes(9)), 404, "resource_missing");
    expect((await uploadRow(up.id))!.status).toBe("deleted");
  });
});

describe("who may write to an upload URL", () => {
  it("only the holder of the signed URL: no signature, a forged one, or another upload's signature are refused", async () => {
    const a = await createOrg();
    const b = await createOrg();
    const upA = await reserve(a.key, { content_type: "video/mp4", size: 10 });
    const upB = await reserve(b.key, { content_type: "video/mp4", size: 10 });
    const bare = upA.upload_url.split("?")[0];
    const sigOfB = new URL(upB.upload_url).searchParams.get("sig");
    const forged = `${bare}?sig=${"A".repeat(43)}`;
    for (const url of [bare, forged, `${bare}?sig=${sigOfB}`]) {
      await expectError(await send(url, { method: "PUT", body: randomBytes(10), headers: { "Content-Type": "video/mp4", Authorization: `Bearer ${b.key}` } }), 403, "signature_invalid");
      await expectError(await patch(url, 0, randomBytes(10)), 403, "signature_invalid");
      await expectError(await send(url, { method: "DELETE", headers: { "Tus-Resumable": "1.0.0" } }), 403, "signature_invalid");
    }
    expect(await env.MEDIA.head(`uploads/${a.orgId}/${upA.id}`)).toBeNull();
    expect((await uploadRow(upA.id))!.status).toBe("pending");
  });
});

describe("expiry", () => {
  it("expires unfinished uploads after 7 days: multipart aborted, row expired, URL refuses bytes", async () => {
    const org = await createOrg();
    const services = buildServices(env);
    const up = await reserve(org.key, { content_type: "video/mp4", size: PART_SIZE * 2 });
    const done = await reserve(org.key, { content_type: "video/mp4", size: 4 });
    expect((await send(done.upload_url, { method: "PUT", body: randomBytes(4), headers: { "Content-Type": "video/mp4" } })).status).toBe(200);
    expect((await patch(up.upload_url, 0, randomBytes(PART_SIZE + 7))).status).toBe(204);
    const multipartId = await runInDurableObject(tusTargetStub(env, up.id), (_obj, state) => state.storage.kv.get<{ multipartUploadId: string }>("progress")!.multipartUploadId);
    expect(multipartId).toBeTruthy();

    const row = (await uploadRow(up.id))!;
    // Other tests in this file share the database, so look only at this test's uploads.
    expect(await expireStaleUploads(services, row.expiresAt - 1)).not.toContain(up.id);
    const expired = await expireStaleUploads(services, row.expiresAt + 1);
    expect(expired).toContain(up.id);
    expect(expired).not.toContain(done.id);

    expect((await uploadRow(up.id))!.status).toBe("expired");
    expect((await uploadRow(done.id))!.status).toBe("complete");
    const multipart = env.MEDIA.resumeMultipartUpload(`uploads/${org.orgId}/${up.id}`, multipartId);
    await expect(multipart.uploadPart(2, randomBytes(10))).rejects.toThrow();
    await expectError(await patch(up.upload_url, PART_SIZE + 7, randomBytes(10)), 410, "upload_expired");
    expect((await send(up.upload_url, { method: "HEAD", headers: { "Tus-Resumable": "1.0.0" } })).status).toBe(410);
    // A second sweep finds nothing left to do.
    expect(await expireStaleUploads(services, row.expiresAt + 2)).toEqual([]);
  });

  it("the Durable Object's alarm expires the upload on its own", async () => {
    const org = await createOrg();
    const up = await reserve(org.key, { content_type: "video/mp4", size: 100 });
    expect((await patch(up.upload_url, 0, randomBytes(10))).status).toBe(204);
    const stub = tusTargetStub(env, up.id);
    // Pretend the 7 days have passed.
    await runInDurableObject(stub, async (_obj, state) => {
      const spec = state.storage.kv.get<{ expiresAt: number }>("spec")!;
      state.storage.kv.put("spec", { ...spec, expiresAt: Math.floor(Date.now() / 1000) - 1 });
    });
    // Refused from the expiry on, even before the alarm has run.
    await expectError(await patch(up.upload_url, 10, randomBytes(10)), 410, "upload_expired");
    expect((await send(up.upload_url, { method: "HEAD", headers: { "Tus-Resumable": "1.0.0" } })).status).toBe(410);
    expect((await uploadRow(up.id))!.status).toBe("pending");
    await runInDurableObject(stub, (obj) => (obj as UploadState).alarm());
    expect((await uploadRow(up.id))!.status).toBe("expired");
  });

  it("the cron runs the sweep", async () => {
    const org = await createOrg();
    const up = await reserve(org.key, { content_type: "video/mp4", size: 100 });
    const row = (await uploadRow(up.id))!;
    const controller = { scheduledTime: (row.expiresAt + 60) * 1000, cron: "*/5 * * * *", noRetry() {} } as ScheduledController;
    await worker.scheduled(controller, env);
    expect((await uploadRow(up.id))!.status).toBe("expired");
  });
});
