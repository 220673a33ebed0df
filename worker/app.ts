// Assembles the Worker's HTTP surface: the public /v1 API and the runner API (apis.ts, each with its
// OpenAPI document), the operator /admin/v1 API, and shared error handling.
import { Hono, type Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "./env";
import { ApiError } from "./errors";
import { createPublicApi, createRunnerApi } from "./apis";
import { createOpenApiApp } from "./lib/http";
import { requireOperator } from "./middleware/operator";
import { finishRequestBody } from "./middleware/request-body";
import { requestId } from "./middleware/request-id";
import { services } from "./middleware/services";
import { registerAdminCreateApiKey } from "./routes/admin/api-keys-create";
import { registerAdminRevokeApiKey } from "./routes/admin/api-keys-revoke";
import { registerAdminAddCredits } from "./routes/admin/credits-create";
import { registerAdminUpdateAutoRecharge } from "./routes/admin/auto-recharge-update";
import { registerAdminEmitEvent } from "./routes/admin/events-create";
import { registerAdminCreateGroup } from "./routes/admin/groups-create";
import { registerAdminCreateOrganization } from "./routes/admin/organizations-create";
import { registerAdminCreateRunnerToken } from "./routes/admin/runner-tokens-create";
import { registerAdminCreateTopUpLink } from "./routes/admin/top-up-links-create";
import { registerAdminGetTopUpLink } from "./routes/admin/top-up-links-get";
import { registerPaymentPages } from "./routes/payments/pages";
import { registerPaymentWebhook } from "./routes/payments/webhook";
import { registerAdminRevokeRunnerToken } from "./routes/admin/runner-tokens-revoke";
import { registerMediaEndpoints } from "./routes/media/get";
import { registerTusEndpoints } from "./routes/uploads/tus";
import { registerMcpEndpoint } from "./routes/mcp/handle";
import { registerDocsEndpoints } from "./routes/docs/get";
import { registerHubEndpoints } from "./routes/hub/get";
import { OPERATOR_API_DESCRIPTION } from "./schemas/api-descriptions";
import { API_VERSION, openApiDocument } from "./schemas/openapi-document";

function createAdminApi() {
  const admin = createOpenApiApp();
  admin.openAPIRegistry.registerComponent("securitySchemes", "operatorAuth", { type: "http", scheme: "bearer" });
  admin.use("/admin/v1/*", requireOperator);
  registerAdminCreateOrganization(admin);
  registerAdminCreateGroup(admin);
  registerAdminCreateApiKey(admin);
  registerAdminRevokeApiKey(admin);
  registerAdminAddCredits(admin);
  registerAdminUpdateAutoRecharge(admin);
  registerAdminCreateTopUpLink(admin);
  registerAdminGetTopUpLink(admin);
  registerAdminCreateRunnerToken(admin);
  registerAdminRevokeRunnerToken(admin);
  registerAdminEmitEvent(admin);
  // Built like the public and runner documents (licence, servers, the response headers the middleware adds).
  admin.get("/admin/v1/openapi.json", (c) => c.json(openApiDocument(admin, { title: "Operator API", description: OPERATOR_API_DESCRIPTION }, {})));
  return admin;
}

export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof HTTPException && err.status < 500) {
    // Hono's own body parsing (malformed JSON), and the media-type gate of a route with a JSON body.
    const message = /json/i.test(err.message)
      ? "The request body is not valid JSON. Send a JSON object with `Content-Type: application/json`."
      : err.status === 415
        ? "The request body must be JSON: send it with `Content-Type: application/json` (a form or plain-text body is not read)."
        : `Invalid request: ${err.message}`;
    return new ApiError("parameter_invalid", message);
  }
  return new ApiError("api_error", "An unexpected error occurred on our side. It is safe to retry; quote the Request-Id if it persists.");
}

function handleError(err: Error, c: Context<AppEnv>): Response {
  const apiError = toApiError(err);
  if (apiError.code === "api_error") console.error(JSON.stringify({ level: "error", request_id: c.get("requestId"), error: String(err?.stack ?? err) }));
  const res = apiError.toResponse();
  const id = c.get("requestId");
  if (id) res.headers.set("Request-Id", id);
  return res;
}

/**
 * Which methods each route path answers, to tell 404 from 405. Paths match exactly, as Hono routes
 * them: `/v1/sessions/` is not `/v1/sessions` (a 404 that says so, not a 405 that lists the very
 * method that was refused).
 */
function routeMatchers(app: Hono<AppEnv>) {
  const matchers = app.routes
    .filter((r) => r.method !== "ALL")
    .map((r) => ({
      method: r.method,
      re: new RegExp(`^${r.path.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/:[^/]+/g, "[^/]+")}$`),
    }));
  return (path: string) => [...new Set(matchers.filter((m) => m.re.test(path)).map((m) => m.method))];
}

/** The 404 or 405 for a request no route answered. */
function unroutedRequest(methodsFor: ReturnType<typeof routeMatchers>, method: string, path: string): ApiError {
  const allowed = methodsFor(path);
  if (allowed.length > 0) {
    return new ApiError("method_not_allowed", `${method} is not allowed on ${path}. Allowed: ${allowed.join(", ")}.`, { headers: { Allow: allowed.join(", ") } });
  }
  const bare = path.replace(/\/+$/, "");
  const bareAllows = bare !== path && bare !== "" ? methodsFor(bare) : [];
  if (bareAllows.length > 0) {
    const suggestion = bareAllows.includes(method) ? `${method} ${bare}` : `${bare} (it allows ${bareAllows.join(", ")})`;
    return new ApiError("route_not_found", `Unrecognized request URL (${method} ${path}): paths in this API take no trailing slash. Did you mean ${suggestion}?`);
  }
  return new ApiError("route_not_found", `Unrecognized request URL (${method} ${path}). See /docs (the API reference) or /v1/openapi.json for the API's routes.`);
}

export function createApp() {
  const app = new Hono<AppEnv>();
  app.use("*", requestId);
  app.use("*", finishRequestBody);
  app.use("*", services);
  // A bare route through the same middleware chain minus auth: the baseline
  // for bench/auth.ts and a liveness probe for load balancers.
  app.get("/health", (c) => c.json({ ok: true }));
  app.route("/", createPublicApi());
  // Signed-URL surfaces: the signature is the credential, so no API key and no OpenAPI entry.
  registerTusEndpoints(app);
  registerMediaEndpoints(app);
  registerHubEndpoints(app);
  // Card top-ups: the provider's signed confirmations (the signature is the credential) and the payer's pages.
  registerPaymentWebhook(app);
  registerPaymentPages(app);
  // The API references (public and runner), rendered in the browser from the documents above.
  registerDocsEndpoints(app);
  app.route("/", createAdminApi());
  app.route("/", createRunnerApi());
  // The assistant tool server: a client of /v1 above, with the caller's key.
  registerMcpEndpoint(app, API_VERSION);

  let methodsFor: ReturnType<typeof routeMatchers> | undefined;
  app.notFound((c) => {
    methodsFor ??= routeMatchers(app);
    throw unroutedRequest(methodsFor, c.req.method, c.req.path);
  });
  app.onError(handleError);
  return app;
}
