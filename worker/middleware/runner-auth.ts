import { and, eq, isNull } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import { runnerTokens } from "../../drizzle/schema";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { sha256Hex } from "../ids";
import { parseBearer } from "./auth";

/**
 * Guards /runner/v1 with a runner token (`hr_…`, minted by the operator CLI,
 * hashed at rest). Looked up on every request so revocation is immediate; the
 * runner API is low-volume (claims long-poll, heartbeats every minute).
 */
export const requireRunner = createMiddleware<AppEnv>(async (c, next) => {
  const token = parseBearer(c.req.header("Authorization"));
  if (!token || !/^hr_[0-9A-Za-z]{40}$/.test(token)) {
    throw new ApiError("invalid_runner_token", "A runner token (`hr_…`) is required: `Authorization: Bearer <RUNNER_TOKEN>`.");
  }
  const { db } = c.get("services");
  const row = await db
    .select({ id: runnerTokens.id })
    .from(runnerTokens)
    .where(and(eq(runnerTokens.hash, await sha256Hex(token)), isNull(runnerTokens.revokedAt)))
    .get();
  if (!row) throw new ApiError("invalid_runner_token", "The runner token is unknown or has been revoked.");
  c.set("runner", { tokenId: row.id });
  await next();
});
