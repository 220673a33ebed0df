import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { discardBody, unreadBody } from "../lib/request-body";

/**
 * Every answer goes out only after the request's body has been read to its end (lib/request-body.ts
 * says why). Outermost but for the request id, so it also runs after refusals that were thrown
 * (auth, validation, unknown routes): Hono's `onError` has turned those into the envelope by the
 * time `next()` returns. A body a handler read, or handed to a Durable Object (which reads the rest
 * itself when it refuses, see UploadState), is locked or used and left alone.
 */
export const finishRequestBody = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  await discardBody(unreadBody(c.req.raw));
});
