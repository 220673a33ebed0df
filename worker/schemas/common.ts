import { z } from "@hono/zod-openapi";

export const ErrorSchema = z
  .object({
    error: z
      .object({
        type: z.enum(["invalid_request_error", "authentication_error", "insufficient_credits", "rate_limit_error", "api_error"]),
        code: z.string().openapi({ example: "parameter_invalid" }),
        message: z.string(),
        param: z.string().optional().openapi({ example: "source.url" }),
      })
      .passthrough(),
  })
  .openapi("Error");

const errorContent = { "application/json": { schema: ErrorSchema } };

/** The error answers every route authenticated by an API key can give. */
export const openApiErrorResponses = {
  400: { description: "Invalid request (`parameter_invalid` and friends)", content: errorContent },
  401: { description: "Missing, invalid, revoked or wrong-environment API key", content: errorContent },
  404: { description: "Resource or route not found (`resource_missing`)", content: errorContent },
  429: { description: "Rate limit exceeded; honour `Retry-After`", content: errorContent },
  500: { description: "Unexpected error (`api_error`); safe to retry", content: errorContent },
} as const;

/** The error answers every runner API route can give: runner tokens have no rate limit, so no 429. */
export const runnerErrorResponses = {
  400: openApiErrorResponses[400],
  401: { description: "Missing, unknown or revoked runner token (`invalid_runner_token`)", content: errorContent },
  404: openApiErrorResponses[404],
  500: openApiErrorResponses[500],
} as const;

/** The error answers every operator API route (/admin/v1) can give: the operator token has no rate limit, so no 429. */
export const operatorErrorResponses = {
  400: openApiErrorResponses[400],
  401: { description: "Missing or wrong operator token (`invalid_operator_token`)", content: errorContent },
  404: openApiErrorResponses[404],
  500: { description: "Unexpected error (`api_error`), or the operator API disabled because `OPERATOR_TOKEN` is unset or short (`service_misconfigured`)", content: errorContent },
} as const;

/** Routes that check an outbound URL: the DNS resolver may be unavailable. */
export const dnsUnavailableResponse = {
  503: { description: "`dns_unavailable`: the URL's host could not be looked up right now; retry after `Retry-After` seconds (with the same Idempotency-Key)", content: errorContent },
} as const;

export const errorResponse = (description: string) => ({ description, content: errorContent });

export const IdPathParam = (prefix: string, name = "id") =>
  z.object({
    [name]: z.string().min(1).max(100).openapi({ param: { name, in: "path" }, example: `${prefix}_4f9XoT2qLw8bZ1mN3pQ7rS5u` }),
  });
