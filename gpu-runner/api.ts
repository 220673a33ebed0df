// Client of the runner API (/runner/v1). Every request is typed from the
// contract (contract/runner-api.ts) and every answer is validated against it,
// so a Worker that drifts from the contract is noticed at the first answer,
// not as a wrong value deep in a job. Classifies failures the way the loops
// need them: 401 is fatal (bad or revoked token), 409 lease_lost means drop
// the job, 5xx and network errors are retried with jittered backoff.
import type { z } from "zod";
import { RUNNER_API_PREFIX, RUNNER_ROUTES, type JobResultInput, type RunnerAnswer, type RunnerRequest, type RunnerRoute, type SessionErrorCode } from "../contract/runner-api";

export type { ClaimedJob } from "../contract/runner-api";

export class FatalRunnerError extends Error {}
export class LeaseLostError extends Error {}
export class ApiRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
  ) {
    super(message);
  }
}

/**
 * A 2xx answer that does not match the contract: the API and this runner disagree on the wire
 * shape (different versions). Not retried: asking again gets the same answer.
 */
export class ContractMismatchError extends ApiRequestError {
  constructor(route: RunnerRoute, status: number, error: z.ZodError) {
    const issues = error.issues.slice(0, 5).map((i) => `${i.path.join(".") || "(answer)"}: ${i.message}`);
    super(`${route}: the API's answer does not match the runner API contract (are the runner and the API the same version?): ${issues.join("; ")}`, status, "contract_mismatch");
  }
}

/** How a request reaches the API; the runner uses the global fetch, tests may route it elsewhere. */
export type Transport = (url: string, init: RequestInit) => Promise<Response>;

export interface RetryPolicy {
  attempts: number;
  baseMs: number;
  maxMs: number;
}

const DEFAULT_RETRY: RetryPolicy = { attempts: 6, baseMs: 500, maxMs: 30_000 };

export function backoffMs(attempt: number, policy: RetryPolicy = DEFAULT_RETRY): number {
  const exp = Math.min(policy.maxMs, policy.baseMs * 2 ** attempt);
  return exp / 2 + Math.random() * (exp / 2); // "equal jitter": never zero, never synchronised
}

export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
  });

export class RunnerApi {
  constructor(
    readonly baseUrl: string,
    private readonly token: string,
    private readonly retry: RetryPolicy = DEFAULT_RETRY,
    private readonly transport: Transport = (url, init) => fetch(url, init),
  ) {}

  private async post<R extends RunnerRoute>(
    route: R,
    jobId: string | null,
    body: RunnerRequest<R>,
    opts: { signal?: AbortSignal; retry?: boolean } = {},
  ): Promise<RunnerAnswer<R>> {
    const { path: template, answer } = RUNNER_ROUTES[route];
    const path = jobId === null ? template : template.replace("{id}", encodeURIComponent(jobId));
    const attempts = opts.retry === false ? 1 : this.retry.attempts;
    let lastError: unknown;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (opts.signal?.aborted) throw new Error("aborted");
      try {
        const res = await this.transport(`${this.baseUrl}${RUNNER_API_PREFIX}${path}`, {
          method: "POST",
          headers: { Authorization: `Bearer ${this.token}`, "Content-Type": "application/json" },
          body: JSON.stringify(body),
          signal: opts.signal,
        });
        const text = await res.text();
        const json = text ? JSON.parse(text) : {};
        if (res.ok) {
          const parsed = answer.safeParse(json);
          if (!parsed.success) throw new ContractMismatchError(route, res.status, parsed.error);
          return parsed.data as RunnerAnswer<R>;
        }
        const code = json?.error?.code as string | undefined;
        const message = `${path}: HTTP ${res.status} ${code ?? ""} ${json?.error?.message ?? ""}`.trim();
        if (res.status === 401) throw new FatalRunnerError(message);
        if (code === "lease_lost") throw new LeaseLostError(message);
        if (res.status < 500 && res.status !== 429) throw new ApiRequestError(message, res.status, code);
        lastError = new ApiRequestError(message, res.status, code);
      } catch (err) {
        if (err instanceof FatalRunnerError || err instanceof LeaseLostError || err instanceof ApiRequestError) throw err;
        if (opts.signal?.aborted) throw err;
        lastError = err; // network error: retry
      }
      await sleep(backoffMs(attempt, this.retry), opts.signal);
    }
    throw lastError instanceof Error ? lastError : new Error(String(lastError));
  }

  claim(waitSeconds: number, signal?: AbortSignal) {
    return this.post("claim", null, { wait_seconds: waitSeconds }, { signal, retry: false });
  }
  heartbeat(jobId: string, leaseId: string, progress: { stage?: string; percent?: number }) {
    return this.post("heartbeat", jobId, { lease_id: leaseId, ...progress });
  }
  /** The probed length, before any analysis; `proceed: false` means the session has failed: stop. */
  measured(jobId: string, leaseId: string, durationSeconds: number) {
    return this.post("measured", jobId, { lease_id: leaseId, duration_seconds: durationSeconds });
  }
  createOutput(jobId: string, leaseId: string, name: string, size: number, contentType: string) {
    return this.post("createOutput", jobId, { lease_id: leaseId, name, size, content_type: contentType });
  }
  complete(jobId: string, leaseId: string, result: JobResultInput) {
    return this.post("complete", jobId, { lease_id: leaseId, result });
  }
  fail(jobId: string, leaseId: string, code: SessionErrorCode, message: string) {
    return this.post("fail", jobId, { lease_id: leaseId, code, message: message.slice(0, 1000) });
  }
  release(jobId: string, leaseId: string, reason: string) {
    return this.post("release", jobId, { lease_id: leaseId, reason });
  }
}
