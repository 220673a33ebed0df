import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { HeartbeatAnswer, HeartbeatRequest } from "../../../contract/runner-api";
import type { AppEnv } from "../../env";
import { errorResponse, IdPathParam, runnerErrorResponses } from "../../schemas/common";
import { heartbeat } from "../../services/jobs";
import { lifecycleDeps } from "../../services/lifecycle";
import { publicBaseUrl } from "../../services/media-urls";

export const heartbeatRoute = createRoute({
  operationId: "runnerHeartbeat",
  method: "post",
  path: "/runner/v1/jobs/{id}/heartbeat",
  summary: "Renew the lease and report progress; the answer may ask the runner to cancel",
  security: [{ runnerAuth: [] }],
  request: {
    params: IdPathParam("job"),
    body: { required: true, content: { "application/json": { schema: HeartbeatRequest } } },
  },
  responses: {
    200: {
      description: "Lease renewed",
      content: { "application/json": { schema: HeartbeatAnswer } },
    },
    409: errorResponse("`lease_lost`: the lease is no longer this runner's; drop the job"),
    ...runnerErrorResponses,
  },
});

export function registerRunnerHeartbeat(app: OpenAPIHono<AppEnv>) {
  app.openapi(heartbeatRoute, async (c) => {
    const body = c.req.valid("json");
    const deps = lifecycleDeps(c.get("services"), publicBaseUrl(c.env, c.req.url));
    return c.json(await heartbeat(deps, c.req.valid("param").id, body.lease_id, { stage: body.stage, percent: body.percent }), 200);
  });
}
