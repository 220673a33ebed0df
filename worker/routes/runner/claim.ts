import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { ClaimAnswer, ClaimRequest } from "../../../contract/runner-api";
import type { AppEnv } from "../../env";
import { runnerErrorResponses } from "../../schemas/common";
import { claimNextJob } from "../../services/jobs";
import { lifecycleDeps } from "../../services/lifecycle";
import { publicBaseUrl } from "../../services/media-urls";

/** Claims are retried inside the request this often while long-polling. */
const POLL_INTERVAL_MS = 1000;

export const claimJobRoute = createRoute({
  operationId: "runnerClaimJob",
  method: "post",
  path: "/runner/v1/jobs/claim",
  summary: "Long-poll for one job and lease it",
  security: [{ runnerAuth: [] }],
  request: {
    body: {
      required: false,
      content: { "application/json": { schema: ClaimRequest } },
    },
  },
  responses: {
    200: {
      description: "`job` is null when nothing was claimable within `wait_seconds`",
      content: { "application/json": { schema: ClaimAnswer } },
    },
    ...runnerErrorResponses,
  },
});

export function registerRunnerClaimJob(app: OpenAPIHono<AppEnv>) {
  app.openapi(claimJobRoute, async (c) => {
    const waitSeconds = c.req.valid("json")?.wait_seconds ?? 20;
    const deps = lifecycleDeps(c.get("services"), publicBaseUrl(c.env, c.req.url));
    const deadline = Date.now() + waitSeconds * 1000;
    // A runner that hung up (shutting down) must not be handed a job it will
    // never see; the request signal (compat flag enable_request_signal) says
    // so. The narrow race that remains is covered by the lease.
    const gone = c.req.raw.signal;
    for (;;) {
      if (gone.aborted) return c.json({ job: null }, 200);
      const job = await claimNextJob(deps, c.get("runner").tokenId);
      if (job || Date.now() + POLL_INTERVAL_MS > deadline) return c.json({ job }, 200);
      await new Promise((r) => setTimeout(r, POLL_INTERVAL_MS));
    }
  });
}
