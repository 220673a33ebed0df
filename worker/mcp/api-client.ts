// The tool server is a client of /v1: every tool call becomes one API request made with the
// caller's own key, so authentication, rate limits, idempotency, billing and organization scoping
// are exactly the API's. In the Worker the request goes to the same Hono app in-process (no network
// hop, same middleware); the interface also fits a plain HTTP client for a separate deployment.

export interface ApiResponse {
  status: number;
  /** Response headers that matter to a caller (`Request-Id`, `Retry-After`, cost and replay markers). */
  headers: Headers;
  body: unknown;
}

export interface ApiRequest {
  method: "GET" | "POST";
  /** Path under the API's origin, e.g. `/v1/sessions`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface ApiClient {
  request(req: ApiRequest): Promise<ApiResponse>;
}

/** A `fetch`-shaped function that reaches the API: the app's own `fetch` in the Worker. */
export type ApiFetch = (request: Request) => Promise<Response>;

export function createApiClient(apiFetch: ApiFetch, origin: string, authorization: string): ApiClient {
  return {
    async request({ method, path, query, body, headers }) {
      const url = new URL(path, origin);
      for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
      const json: Record<string, string> = body === undefined ? {} : { "Content-Type": "application/json" };
      const res = await apiFetch(
        new Request(url, { method, headers: { ...headers, ...json, Authorization: authorization }, body: body === undefined ? undefined : JSON.stringify(body) }),
      );
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // Not JSON (should not happen on /v1): keep the text for the error message.
      }
      return { status: res.status, headers: res.headers, body: parsed };
    },
  };
}
