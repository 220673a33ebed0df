// Request idempotency on top of the IdempotencyKey Durable Object: the key
// checks, the request fingerprint, and the wait for a duplicate's turn.
import type { BeginResult, Recovery, StoredResponse } from "../durable-objects/idempotency-key";
import type { Env } from "../env";
import { ApiError } from "../errors";
import { sha256Hex } from "../ids";

export const IDEMPOTENCY_KEY_MAX = 255;
/** How long a duplicate waits for the first request to finish before a retryable 409. */
export const IN_PROGRESS_WAIT_MS = 2_000;
const POLL_MS = 100;

export interface IdempotencyStore {
  begin(fingerprint: string, fresh: Recovery): Promise<BeginResult>;
  checkpoint(points: Recovery): Promise<void>;
  complete(response: StoredResponse): Promise<void>;
  release(): Promise<void>;
  forget(): Promise<void>;
}

/** The `Idempotency-Key` header, checked; undefined when absent. */
export function parseIdempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (header.length === 0 || header.length > IDEMPOTENCY_KEY_MAX) {
    throw new ApiError("parameter_invalid", `The Idempotency-Key header must be 1 to ${IDEMPOTENCY_KEY_MAX} characters.`, { param: "Idempotency-Key" });
  }
  return header;
}

export function durableIdempotencyStore(env: Env, orgId: string, key: string): IdempotencyStore {
  const stub = env.IDEMPOTENCY.get(env.IDEMPOTENCY.idFromName(`${orgId}::${key}`));
  return {
    begin: (fingerprint, fresh) => stub.begin(fingerprint, fresh),
    checkpoint: async (points) => stub.checkpoint(points),
    complete: async (response) => stub.complete(response),
    release: async () => stub.release(),
    forget: () => stub.forget(),
  };
}

/** Key-order-independent JSON, so `{a, b}` and `{b, a}` are the same request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export function requestFingerprint(method: string, path: string, body: unknown): Promise<string> {
  return sha256Hex(`${method} ${path}\n${canonicalJson(body)}`);
}

/**
 * Claims the key, waiting up to `waitMs` while another request with it is
 * running. Returns the recovery points to work with, or the stored response
 * to replay; throws `idempotency_key_reused` / `idempotency_key_in_progress`.
 */
export async function claimKey(
  store: IdempotencyStore,
  fingerprint: string,
  fresh: Recovery,
  waitMs: number = IN_PROGRESS_WAIT_MS,
): Promise<{ recovery: Recovery } | { replay: StoredResponse }> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const result = await store.begin(fingerprint, fresh);
    switch (result.kind) {
      case "started":
        return { recovery: result.recovery };
      case "completed":
        return { replay: result.response };
      case "mismatch":
        throw new ApiError(
          "idempotency_key_reused",
          "This Idempotency-Key was already used with a different request body. Use a new key for a new request.",
          { param: "Idempotency-Key" },
        );
      case "in_progress":
        if (Date.now() >= deadline) {
          throw new ApiError(
            "idempotency_key_in_progress",
            "A request with this Idempotency-Key is still being processed. Retry shortly with the same key to get its result.",
            { param: "Idempotency-Key", headers: { "Retry-After": "1" } },
          );
        }
        await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }
}

export interface RunIdempotentOptions {
  /** How long a duplicate waits for the first request (default IN_PROGRESS_WAIT_MS). */
  waitMs?: number;
  /** Test hook: runs after the answer is stored, as a failure just after it would. */
  afterStore?: () => void | Promise<void>;
}

/**
 * Runs one create request under its Idempotency-Key (null: no key). A
 * completed answer is replayed with `replayed: true`. `fresh` holds the ids
 * chosen before the work; a retry after a failed attempt gets that attempt's
 * ids back, so `work` can find what it already created. A request error
 * (4xx, raised before anything is written) frees the key; a server error
 * (5xx, e.g. `dns_unavailable`) only releases it, so it is never stored as
 * the final answer and a retry with the same key does the work.
 * Every idempotent create runs through here (POST /v1/sessions, POST /v1/webhook_endpoints).
 */
export async function runIdempotent<R extends Recovery>(
  store: IdempotencyStore | null,
  fingerprint: string,
  fresh: R,
  work: (recovery: R) => Promise<StoredResponse>,
  opts: RunIdempotentOptions = {},
): Promise<StoredResponse & { replayed: boolean }> {
  let recovery = fresh;
  if (store) {
    const claim = await claimKey(store, fingerprint, fresh, opts.waitMs);
    if ("replay" in claim) return { ...claim.replay, replayed: true };
    recovery = claim.recovery as R;
  }
  try {
    const response = await work(recovery);
    await store?.complete(response);
    await opts.afterStore?.();
    return { ...response, replayed: false };
  } catch (err) {
    if (store) {
      if (err instanceof ApiError && err.status < 500) await store.forget();
      else await store.release();
    }
    throw err;
  }
}
