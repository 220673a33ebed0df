// Serves R2 objects behind signed media URLs (see services/media-urls.ts):
// GET and HEAD, single byte ranges (206 / 416), ETag, CORS for players in
// browsers. Outside /v1 and the OpenAPI document: the signature is the credential.
import type { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors";
import { MEDIA_PATH_PREFIX, verifyMediaUrl } from "../../services/media-urls";

const EXPOSED = "Content-Length, Content-Range, Accept-Ranges, ETag, Content-Type, Content-Disposition, Request-Id";

export type ByteRange = { offset: number; length: number };

/**
 * Parses a `Range` header against an object's size: null means "send the
 * whole object" (no header, or one this server ignores as RFC 9110 allows:
 * another unit, several ranges, bad syntax); "unsatisfiable" means 416.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | "unsatisfiable" | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === "" && match[2] === "")) return null;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    const length = Math.min(suffix, size);
    return { offset: size - length, length };
  }
  const start = Number(match[1]);
  if (match[2] !== "" && Number(match[2]) < start) return null;
  if (start >= size) return "unsatisfiable";
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  return { offset: start, length: end - start + 1 };
}

function keyFromPath(pathname: string): string {
  try {
    return pathname.slice(MEDIA_PATH_PREFIX.length).split("/").map(decodeURIComponent).join("/");
  } catch {
    return "";
  }
}

function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** Players on other origins read these files; errors included, so they can see why. */
const mediaCors = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  c.res.headers.set("Access-Control-Allow-Origin", "*");
  c.res.headers.set("Access-Control-Expose-Headers", EXPOSED);
});

export function registerMediaEndpoints(app: Hono<AppEnv>) {
  app.use(`${MEDIA_PATH_PREFIX}*`, mediaCors);
  app.options(`${MEDIA_PATH_PREFIX}*`, (c) =>
    c.body(null, 204, {
      "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
      "Access-Control-Allow-Headers": "Range, If-None-Match",
      "Access-Control-Max-Age": "86400",
    }),
  );

  // Also answers HEAD (Hono routes HEAD through GET, dropping the body).
  app.get(`${MEDIA_PATH_PREFIX}*`, async (c) => {
    const { env, now } = c.get("services");
    const url = new URL(c.req.url);
    const key = keyFromPath(url.pathname);
    const check = key ? await verifyMediaUrl(env, key, url.searchParams, now()) : ({ valid: false, reason: "signature" } as const);
    if (!check.valid) {
      throw new ApiError(
        "signature_invalid",
        check.reason === "expired" ? "This media URL has expired; fetch the resource again for a fresh one." : "The media URL's signature is missing or wrong.",
      );
    }
    const head = await env.MEDIA.head(key);
    if (!head) throw new ApiError("resource_missing", "The media file does not exist (any more).");

    const headers = new Headers({
      "Content-Type": head.httpMetadata?.contentType ?? "application/octet-stream",
      ETag: head.httpEtag,
      "Accept-Ranges": "bytes",
      "Last-Modified": head.uploaded.toUTCString(),
      // Shared caches must not outlive the signature.
      "Cache-Control": `private, max-age=${Math.max(0, check.exp - now())}`,
    });
    if (check.filename !== undefined) headers.set("Content-Disposition", contentDisposition(check.filename));

    const range = parseRange(c.req.header("Range"), head.size);
    if (range === "unsatisfiable") {
      throw new ApiError("range_not_satisfiable", `The requested range is outside the ${head.size}-byte file.`, {
        headers: { "Content-Range": `bytes */${head.size}`, "Accept-Ranges": "bytes" },
      });
    }
    const status = range ? 206 : 200;
    const span = range ?? { offset: 0, length: head.size };
    if (range) headers.set("Content-Range", `bytes ${span.offset}-${span.offset + span.length - 1}/${head.size}`);
    headers.set("Content-Length", String(span.length));
    if (c.req.method === "HEAD") return new Response(null, { status, headers });

    const object = await env.MEDIA.get(key, range ? { range } : {});
    if (!object) throw new ApiError("resource_missing", "The media file does not exist (any more).");
    return new Response(object.body, { status, headers });
  });
}
