import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { ReleaseAnswer, ReleaseRequest } from "../../../contract/runner-api";
import type { AppEnv } from "../../env";
import { errorResponse, IdPathParam, runnerErrorResponses } from "../../schemas/common";
import { releaseJob } from "../../services/jobs";
import { lifecycleDeps } from "../../services/lifecycle";
import { publicBaseUrl } from "../../services/media-urls";

export const releaseJobRoute = createRoute({
  operationId: "runnerReleaseJob",
  method: "post",
  path: "/runner/v1/jobs/{id}/release",
  summary: "Hand a job back (runner shutting down): another runner can claim it at once",
  security: [{ runnerAuth: [] }],
  request: {
    params: IdPathParam("job"),
    body: { required: true, content: { "application/json": { schema: ReleaseRequest } } },
  },
  responses: {
    200: { description: "Released", content: { "application/json": { schema: ReleaseAnswer } } },
    409: errorResponse("`lease_lost`"),
    ...runnerErrorResponses,
  },
});

export function registerRunnerReleaseJob(app: OpenAPIHono<AppEnv>) {
  app.openapi(releaseJobRoute, async (c) => {
    const body = c.req.valid("json");
    await releaseJob(lifecycleDeps(c.get("services"), publicBaseUrl(c.env, c.req.url)), c.req.valid("param").id, body.lease_id);
    return c.json({ status: "released" as const }, 200);
  });
}
