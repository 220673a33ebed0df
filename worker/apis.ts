// The two documented APIs: the public /v1 API and the runner API, each with the routes it registers
// and the OpenAPI document it serves (built by schemas/openapi-document.ts). app.ts mounts both;
// they are apart from it so that the documents can be built outside workerd (test/lint lints them
// with Redocly and generates a client from the public one).
import type { AppEnv } from "./env";
import { createOpenApiApp } from "./lib/http";
import { requireApiKey } from "./middleware/auth";
import { requireRunner } from "./middleware/runner-auth";
import { registerGetBalance } from "./routes/balance/get";
import { registerListEvents } from "./routes/events/list";
import { registerRunnerClaimJob } from "./routes/runner/claim";
import { registerRunnerCompleteJob } from "./routes/runner/complete";
import { registerRunnerFailJob } from "./routes/runner/fail";
import { registerRunnerHeartbeat } from "./routes/runner/heartbeat";
import { registerRunnerReportMeasured } from "./routes/runner/measured";
import { registerRunnerCreateOutput } from "./routes/runner/outputs";
import { registerRunnerReleaseJob } from "./routes/runner/release";
import { registerCreateSession } from "./routes/sessions/create";
import { registerGetSession } from "./routes/sessions/get";
import { registerListSessionHighlights } from "./routes/sessions/highlights-list";
import { registerListSessions } from "./routes/sessions/list";
import { registerListSessionPlayers } from "./routes/sessions/players-list";
import { registerListSessionShots } from "./routes/sessions/shots-list";
import { registerCreateSessionShareLink } from "./routes/sessions/share-links-create";
import { registerCreateUpload } from "./routes/uploads/create";
import { registerListUsage } from "./routes/usage/list";
import { registerCreateWebhookEndpoint } from "./routes/webhook-endpoints/create";
import { registerDeleteWebhookEndpoint } from "./routes/webhook-endpoints/delete";
import { registerGetWebhookEndpoint } from "./routes/webhook-endpoints/get";
import { registerListWebhookEndpoints } from "./routes/webhook-endpoints/list";
import { registerTestWebhookEndpoint } from "./routes/webhook-endpoints/test";
import { PUBLIC_API_DESCRIPTION, PUBLIC_OPENAPI_PATH, RUNNER_API_DESCRIPTION, RUNNER_OPENAPI_PATH } from "./schemas/api-descriptions";
import { PUBLIC_API_EXAMPLES, RUNNER_API_EXAMPLES } from "./schemas/examples";
import { openApiDocument } from "./schemas/openapi-document";
import { API_KEY_SCHEME } from "./schemas/response-headers";

export function createPublicApi() {
  const api = createOpenApiApp();
  api.openAPIRegistry.registerComponent("securitySchemes", API_KEY_SCHEME, {
    type: "http",
    scheme: "bearer",
    description: "An API key: `hk_prod_…` in production, `hk_stg_…` in staging.",
  });
  // The interface description itself is public, like Stripe's; /docs renders it.
  api.get(PUBLIC_OPENAPI_PATH, (c) => c.json(publicOpenApiDocument(api)));
  api.use("/v1/*", async (c, next) => (c.req.path === PUBLIC_OPENAPI_PATH ? next() : requireApiKey(c, next)));
  registerGetBalance(api);
  registerCreateSession(api);
  registerListSessions(api);
  registerGetSession(api);
  registerListSessionHighlights(api);
  registerListSessionShots(api);
  registerListSessionPlayers(api);
  registerCreateSessionShareLink(api);
  registerListUsage(api);
  registerCreateWebhookEndpoint(api);
  registerListWebhookEndpoints(api);
  registerGetWebhookEndpoint(api);
  registerDeleteWebhookEndpoint(api);
  registerTestWebhookEndpoint(api);
  registerListEvents(api);
  registerCreateUpload(api);
  return api;
}

/** The API GPU runners pull work from; its own OpenAPI document. */
export function createRunnerApi() {
  const runner = createOpenApiApp();
  runner.openAPIRegistry.registerComponent("securitySchemes", "runnerAuth", {
    type: "http",
    scheme: "bearer",
    description: "A runner token (`hr_…`) minted with `npm run ops -- runner-token:create`.",
  });
  runner.get(RUNNER_OPENAPI_PATH, (c) => c.json(runnerOpenApiDocument(runner)));
  runner.use("/runner/v1/*", async (c, next) => (c.req.path === RUNNER_OPENAPI_PATH ? next() : requireRunner(c, next)));
  registerRunnerClaimJob(runner);
  registerRunnerHeartbeat(runner);
  registerRunnerReportMeasured(runner);
  registerRunnerCreateOutput(runner);
  registerRunnerCompleteJob(runner);
  registerRunnerFailJob(runner);
  registerRunnerReleaseJob(runner);
  return runner;
}

type DocumentedApi = ReturnType<typeof createOpenApiApp>;

export function publicOpenApiDocument(api: DocumentedApi = createPublicApi()) {
  return openApiDocument(api, { title: "Basketball Video Analysis API", description: PUBLIC_API_DESCRIPTION }, PUBLIC_API_EXAMPLES);
}

export function runnerOpenApiDocument(runner: DocumentedApi = createRunnerApi()) {
  return openApiDocument(runner, { title: "Runner API", description: RUNNER_API_DESCRIPTION }, RUNNER_API_EXAMPLES);
}
