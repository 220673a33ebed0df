import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { newId } from "../ids";

/** Every response, error or not, carries a `Request-Id` (`req_…`). */
export const requestId = createMiddleware<AppEnv>(async (c, next) => {
  const id = newId("req");
  c.set("requestId", id);
  await next();
  c.res.headers.set("Request-Id", id);
});
