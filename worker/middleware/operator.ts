import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { parseBearer } from "./auth";

/** Compares two secrets in constant time (hashing first equalises lengths). */
export async function secretsEqual(a: string, b: string): Promise<boolean> {
  const enc = new TextEncoder();
  const [ha, hb] = await Promise.all([
    crypto.subtle.digest("SHA-256", enc.encode(a)),
    crypto.subtle.digest("SHA-256", enc.encode(b)),
  ]);
  return crypto.subtle.timingSafeEqual(ha, hb);
}

/** Guards /admin/v1: the operator secret, never a customer API key. */
export const requireOperator = createMiddleware<AppEnv>(async (c, next) => {
  const expected = c.env.OPERATOR_TOKEN;
  const given = parseBearer(c.req.header("Authorization"));
  if (!expected || expected.length < 16) {
    throw new ApiError("service_misconfigured", "The operator API is disabled: set the OPERATOR_TOKEN secret (16+ characters).");
  }
  if (!given || !(await secretsEqual(given, expected))) {
    throw new ApiError("invalid_operator_token", "The operator token is missing or wrong.");
  }
  await next();
});
