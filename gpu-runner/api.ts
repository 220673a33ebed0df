// Client of the runner API (/runner/v1). Classifies failures the way the
// loops need them: 401 is fatal (bad or revoked token), 409 lease_lost means
// drop the job, 5xx and network errors are retried with jittered backoff.
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

export interface ClaimedJob {
  id: string;
  session: string;
  lease: { id: string; expires_at: number };
  attempt: number;
  source: { type: "upload" | "url" | "veo"; download_url: string };
  options: Record<string, unknown>;
  rosters: unknown;
}

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
  ) {}

  private async post<T>(path: string, body: unknown, opts: { signal?: AbortSignal; retry?: boolean } = {}): Promise<T> {
    const attempts = opts.retry === false ? 1 : this.retry.attempts;
    let lastError: unknown;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (opts.signal?.aborted) throw new Error("aborted");
      try {
        const res = await fetch(`${this.baseUrl}/runner/v1${path}`, {
          method: "POST",
          headers: { Authorization: `Bearer ${this.token}`, "Content-Type": "application/json" },
          body: JSON.stringify(body),
          signal: opts.signal,
        });
        const text = await res.text();
        const json = text ? JSON.parse(text) : {};
        if (res.ok) return json as T;
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

  claim(waitSeconds: number, signal?: AbortSignal): Promise<{ job: ClaimedJob | null }> {
    return this.post("/jobs/claim", { wait_seconds: waitSeconds }, { signal, retry: false });
  }
  heartbeat(jobId: string, leaseId: string, progress: { stage?: string; percent?: number }) {
    return this.post<{ lease_expires_at: number; cancel: boolean }>(`/jobs/${jobId}/heartbeat`, { lease_id: leaseId, ...progress });
  }
  createOutput(jobId: string, leaseId: string, name: string, size: number, contentType: string) {
    return this.post<{ name: string; upload_url: string; offset: number }>(`/jobs/${jobId}/outputs`, { lease_id: leaseId, name, size, content_type: contentType });
  }
  complete(jobId: string, leaseId: string, result: unknown) {
    return this.post<{ status: string }>(`/jobs/${jobId}/complete`, { lease_id: leaseId, result });
  }
  fail(jobId: string, leaseId: string, code: string, message: string) {
    return this.post<{ status: string }>(`/jobs/${jobId}/fail`, { lease_id: leaseId, code, message: message.slice(0, 1000) });
  }
  release(jobId: string, leaseId: string, reason: string) {
    return this.post<{ status: string }>(`/jobs/${jobId}/release`, { lease_id: leaseId, reason });
  }
}
