// The upload URLs handed out by POST /v1/uploads (and createTusTarget):
// `/uploads/v1/<id>?sig=…`, speaking tus 1.0.0 (core, termination,
// expiration) and a single PUT. The signature is the credential, so these
// routes sit outside /v1, take no API key, and stay out of the OpenAPI
// document. Every answer carries CORS headers so browsers can upload.
import type { Context, Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { chunkTooLargeMessage } from "../../durable-objects/tus-buffer";
import type { UploadOutcome } from "../../durable-objects/upload-state";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors";
import { MAX_CHUNK_BYTES, MAX_UPLOAD_BYTES, TUS_EXTENSIONS, TUS_VERSION, isExpired, type TusTargetStatus } from "../../lib/tus";
import { tusTargetStub, verifyUploadSignature } from "../../services/tus-targets";

export const TUS_PATH = "/uploads/v1/:id";
const ALLOWED_METHODS = "OPTIONS, HEAD, PATCH, PUT, DELETE";
const TARGET_ID = /^[a-z]{1,8}_[0-9A-Za-z]{8,64}$/;

const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers":
    "Upload-Offset, Upload-Length, Upload-Expires, Tus-Resumable, Tus-Version, Tus-Extension, Tus-Max-Size, Location, Request-Id, X-Request-ID",
};

const tusHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  for (const [name, value] of Object.entries(CORS_HEADERS)) c.res.headers.set(name, value);
  c.res.headers.set("Tus-Resumable", TUS_VERSION);
  c.res.headers.set("Cache-Control", "no-store");
  // tus-js-client quotes X-Request-ID (not Request-Id) in its error messages, so a failed upload's
  // message names the id support needs.
  const id = c.get("requestId");
  if (id) c.res.headers.set("X-Request-ID", id);
});

function httpDate(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toUTCString();
}

function requireTusVersion(c: Context<AppEnv>, required: boolean): void {
  const version = c.req.header("Tus-Resumable");
  if (version === undefined && !required) return;
  if (version !== TUS_VERSION) {
    throw new ApiError(
      "tus_version_unsupported",
      version === undefined ? `Send \`Tus-Resumable: ${TUS_VERSION}\` with tus requests.` : `tus version '${version}' is not supported; this server speaks ${TUS_VERSION}.`,
      { headers: { "Tus-Version": TUS_VERSION } },
    );
  }
}

/** Checks the URL's signature and returns the target's Durable Object. */
async function authorizeTarget(c: Context<AppEnv>) {
  const id = c.req.param("id") ?? "";
  const { env } = c.get("services");
  if (!TARGET_ID.test(id) || !(await verifyUploadSignature(env, id, c.req.query("sig")))) {
    throw new ApiError("signature_invalid", "The upload URL's signature is missing or wrong. Use the exact `upload_url` returned when the upload was reserved.");
  }
  return tusTargetStub(env, id);
}

function parseLength(header: string | undefined, name: string): number | null {
  if (header === undefined) return null;
  if (!/^\d{1,15}$/.test(header)) throw new ApiError("parameter_invalid", `${name} must be a non-negative integer.`, { param: name });
  return Number(header);
}

function progressHeaders(status: TusTargetStatus): Record<string, string> {
  return {
    "Upload-Offset": String(status.offset),
    "Upload-Length": String(status.size),
    ...(status.state === "pending" ? { "Upload-Expires": httpDate(status.expiresAt) } : {}),
  };
}

function unwrap(outcome: UploadOutcome): TusTargetStatus {
  if (outcome.ok) return outcome.status;
  const headers: Record<string, string> = outcome.status && outcome.code === "upload_offset_mismatch" ? { "Upload-Offset": String(outcome.status.offset) } : {};
  throw new ApiError(outcome.code, outcome.message, { headers });
}

export function registerTusEndpoints(app: Hono<AppEnv>) {
  app.use("/uploads/v1/*", tusHeaders);

  // Discovery and CORS preflight in one: neither carries credentials.
  app.options(TUS_PATH, (c) =>
    c.body(null, 204, {
      "Tus-Version": TUS_VERSION,
      "Tus-Extension": TUS_EXTENSIONS.join(","),
      "Tus-Max-Size": String(MAX_UPLOAD_BYTES),
      "Access-Control-Allow-Methods": ALLOWED_METHODS,
      "Access-Control-Allow-Headers": "Content-Type, Upload-Offset, Upload-Length, Upload-Metadata, Tus-Resumable, X-Requested-With, X-HTTP-Method-Override",
      "Access-Control-Max-Age": "86400",
    }),
  );

  // Hono answers HEAD through GET routes; a real GET is not part of the protocol.
  app.get(TUS_PATH, async (c) => {
    if (c.req.method !== "HEAD") {
      throw new ApiError("method_not_allowed", `GET is not allowed on an upload URL. Allowed: ${ALLOWED_METHODS}.`, { headers: { Allow: ALLOWED_METHODS } });
    }
    requireTusVersion(c, false);
    const stub = await authorizeTarget(c);
    const status = await stub.status();
    if (!status || status.state === "terminated") throw new ApiError("resource_missing", "No such upload.");
    if (isExpired(status, c.get("services").now())) throw new ApiError("upload_expired", "This upload has expired; reserve a new one.");
    return c.body(null, 200, progressHeaders(status));
  });

  app.patch(TUS_PATH, async (c) => {
    requireTusVersion(c, true);
    const stub = await authorizeTarget(c);
    const contentType = c.req.header("Content-Type");
    if (contentType !== "application/offset+octet-stream") {
      throw new ApiError("upload_content_type_mismatch", "A tus PATCH must have `Content-Type: application/offset+octet-stream`.");
    }
    const offset = parseLength(c.req.header("Upload-Offset"), "Upload-Offset");
    if (offset === null) throw new ApiError("parameter_invalid", "A tus PATCH needs an Upload-Offset header.", { param: "Upload-Offset" });
    const length = parseLength(c.req.header("Content-Length"), "Content-Length");
    // Refused before a byte is read. Cloudflare itself cuts off bodies over
    // 100 MB, with a page the client cannot act on.
    if (length !== null && length > MAX_CHUNK_BYTES) throw new ApiError("payload_too_large", chunkTooLargeMessage(offset));
    const status = unwrap(await stub.append(offset, c.req.raw.body));
    return c.body(null, 204, progressHeaders(status));
  });

  app.put(TUS_PATH, async (c) => {
    requireTusVersion(c, false);
    const stub = await authorizeTarget(c);
    const outcome = await stub.replace(c.req.raw.body, {
      contentType: c.req.header("Content-Type") ?? null,
      contentLength: parseLength(c.req.header("Content-Length"), "Content-Length"),
    });
    const status = unwrap(outcome);
    return c.json({ id: status.id, object: "upload", status: status.state, size: status.size, content_type: status.contentType }, 200);
  });

  app.delete(TUS_PATH, async (c) => {
    requireTusVersion(c, true);
    const stub = await authorizeTarget(c);
    unwrap(await stub.terminate());
    return c.body(null, 204);
  });
}
