import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { OutputRequest, OutputTarget } from "../../../contract/runner-api";
import type { AppEnv } from "../../env";
import { sha256Hex } from "../../ids";
import { errorResponse, IdPathParam, runnerErrorResponses } from "../../schemas/common";
import { outputKey, requireLease } from "../../services/jobs";
import { publicBaseUrl } from "../../services/media-urls";
import { createTusTarget } from "../../services/tus-targets";

/** Output upload URLs stay valid for a day: long jobs upload at the end. */
const OUTPUT_TARGET_SECONDS = 24 * 3600;

export const createOutputRoute = createRoute({
  operationId: "runnerCreateOutput",
  method: "post",
  path: "/runner/v1/jobs/{id}/outputs",
  summary: "Reserve a resumable (tus) upload for one output file of the job",
  security: [{ runnerAuth: [] }],
  request: {
    params: IdPathParam("job"),
    body: { required: true, content: { "application/json": { schema: OutputRequest } } },
  },
  responses: {
    200: {
      description: "The tus upload URL. Asking again for the same name under the same lease answers the same target, so uploads resume; another lease gets a fresh one.",
      content: { "application/json": { schema: OutputTarget } },
    },
    409: errorResponse("`lease_lost`"),
    ...runnerErrorResponses,
  },
});

export function registerRunnerCreateOutput(app: OpenAPIHono<AppEnv>) {
  app.openapi(createOutputRoute, async (c) => {
    const body = c.req.valid("json");
    const services = c.get("services");
    const job = await requireLease(services, c.req.valid("param").id, body.lease_id);
    // Deterministic per (session, lease, name): a retried reservation resumes the same upload, and
    // a later attempt (another lease, perhaps another runner whose encoder makes a file of another
    // size) starts afresh instead of appending to the bytes of the first.
    const id = `out_${(await sha256Hex(`${job.sessionId}/${body.lease_id}/${body.name}`)).slice(0, 40)}`;
    const { uploadUrl, status } = await createTusTarget(c.env, publicBaseUrl(c.env, c.req.url), {
      id,
      kind: "runner_output",
      orgId: job.orgId,
      sessionId: job.sessionId,
      r2Key: outputKey(job.sessionId, body.name),
      size: body.size,
      contentType: body.content_type,
      expiresAt: services.now() + OUTPUT_TARGET_SECONDS,
    });
    return c.json({ name: body.name, upload_url: uploadUrl, offset: status.offset }, 200);
  });
}
