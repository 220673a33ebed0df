import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { CompleteAnswer, CompleteRequest } from "../../../contract/runner-api";
import type { AppEnv } from "../../env";
import { errorResponse, IdPathParam, runnerErrorResponses } from "../../schemas/common";
import { completeJob } from "../../services/jobs";
import { lifecycleDeps } from "../../services/lifecycle";
import { publicBaseUrl } from "../../services/media-urls";

export const completeJobRoute = createRoute({
  operationId: "runnerCompleteJob",
  method: "post",
  path: "/runner/v1/jobs/{id}/complete",
  summary: "Report a successful result; the session becomes `processed` and the hold is settled",
  security: [{ runnerAuth: [] }],
  request: {
    params: IdPathParam("job"),
    body: { required: true, content: { "application/json": { schema: CompleteRequest } } },
  },
  responses: {
    200: { description: "Stored (repeating the call with the same lease is harmless)", content: { "application/json": { schema: CompleteAnswer } } },
    409: errorResponse("`lease_lost`"),
    ...runnerErrorResponses,
  },
});

export function registerRunnerCompleteJob(app: OpenAPIHono<AppEnv>) {
  app.openapi(completeJobRoute, async (c) => {
    const body = c.req.valid("json");
    const deps = lifecycleDeps(c.get("services"), publicBaseUrl(c.env, c.req.url));
    await completeJob(deps, c.req.valid("param").id, body.lease_id, body.result);
    return c.json({ status: "processed" as const }, 200);
  });
}
