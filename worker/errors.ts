// One error type for the whole API. Handlers throw `ApiError`; `app.onError`
// turns it (and anything else) into the spec's envelope
// `{error: {type, code, message, param?}}` with the right status.
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

export const ERROR_CODES = {
  // authentication_error
  missing_api_key: { status: 401, type: "authentication_error" },
  invalid_api_key: { status: 401, type: "authentication_error" },
  wrong_environment: { status: 401, type: "authentication_error" },
  invalid_operator_token: { status: 401, type: "authentication_error" },
  invalid_runner_token: { status: 401, type: "authentication_error" },
  // rate_limit_error
  rate_limit_exceeded: { status: 429, type: "rate_limit_error" },
  // insufficient_credits
  insufficient_credits: { status: 402, type: "insufficient_credits" },
  // invalid_request_error
  parameter_invalid: { status: 400, type: "invalid_request_error" },
  video_too_large: { status: 400, type: "invalid_request_error" },
  url_not_allowed: { status: 400, type: "invalid_request_error" },
  idempotency_key_reused: { status: 400, type: "invalid_request_error" },
  idempotency_key_in_progress: { status: 409, type: "invalid_request_error" },
  upload_incomplete: { status: 409, type: "invalid_request_error" },
  upload_offset_mismatch: { status: 409, type: "invalid_request_error" },
  upload_expired: { status: 410, type: "invalid_request_error" },
  checkout_expired: { status: 410, type: "invalid_request_error" },
  upload_content_type_mismatch: { status: 415, type: "invalid_request_error" },
  payload_too_large: { status: 413, type: "invalid_request_error" },
  upload_size_mismatch: { status: 400, type: "invalid_request_error" },
  upload_already_complete: { status: 409, type: "invalid_request_error" },
  upload_locked: { status: 423, type: "invalid_request_error" },
  tus_version_unsupported: { status: 412, type: "invalid_request_error" },
  range_not_satisfiable: { status: 416, type: "invalid_request_error" },
  resource_missing: { status: 404, type: "invalid_request_error" },
  route_not_found: { status: 404, type: "invalid_request_error" },
  method_not_allowed: { status: 405, type: "invalid_request_error" },
  signature_invalid: { status: 403, type: "invalid_request_error" },
  // A payment confirmation (webhook) whose signature does not verify: 400, as Stripe's own examples answer.
  signature_verification_failed: { status: 400, type: "invalid_request_error" },
  lease_lost: { status: 409, type: "invalid_request_error" },
  // api_error
  api_error: { status: 500, type: "api_error" },
  service_misconfigured: { status: 500, type: "api_error" },
  // An outside service we depend on (the DNS resolver) did not answer: retryable, with Retry-After.
  dns_unavailable: { status: 503, type: "api_error" },
} as const satisfies Record<string, { status: ContentfulStatusCode; type: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
export type ErrorType = (typeof ERROR_CODES)[ErrorCode]["type"];

export interface ErrorBody {
  error: { type: ErrorType; code: ErrorCode; message: string; param?: string; [detail: string]: unknown };
}

export class ApiError extends HTTPException {
  readonly code: ErrorCode;
  readonly param?: string;
  /** Extra machine-readable fields merged into `error` (e.g. `needed_cents`). */
  readonly detail?: Record<string, unknown>;
  /** Extra response headers (e.g. `Retry-After`). */
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    extra: { param?: string; detail?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(ERROR_CODES[code].status, { message });
    this.code = code;
    this.param = extra.param;
    this.detail = extra.detail;
    this.headers = extra.headers;
  }

  get type(): ErrorType {
    return ERROR_CODES[this.code].type;
  }

  toBody(): ErrorBody {
    return {
      error: {
        type: this.type,
        code: this.code,
        message: this.message,
        ...(this.param !== undefined ? { param: this.param } : {}),
        ...this.detail,
      },
    };
  }

  toResponse(): Response {
    return new Response(JSON.stringify(this.toBody()), {
      status: this.status,
      headers: { "Content-Type": "application/json", ...this.headers },
    });
  }
}

export function notFound(resource: string, id: string, param = "id"): ApiError {
  return new ApiError("resource_missing", `No such ${resource}: '${id}'.`, { param });
}
