import type { IdempotencyKey } from "./durable-objects/idempotency-key";
import type { RateLimiter } from "./durable-objects/rate-limiter";
import type { UploadState } from "./durable-objects/upload-state";
import type { Database } from "./lib/database";
import type { HttpClient } from "./services/http-client";

export type { Database };

export type Environment = "production" | "staging";

/** Bindings declared in wrangler.toml, plus secrets (`wrangler secret put`). */
export interface Env {
  DB: D1Database;
  MEDIA: R2Bucket;
  JOBS_QUEUE: Queue<unknown>;
  WEBHOOKS_QUEUE: Queue<unknown>;
  RATE_LIMITER: DurableObjectNamespace<RateLimiter>;
  IDEMPOTENCY: DurableObjectNamespace<IdempotencyKey>;
  UPLOADS: DurableObjectNamespace<UploadState>;
  ENVIRONMENT: Environment;
  /**
   * "true" lets source links and webhook URLs point at hosts that resolve only to loopback, over
   * http too, connecting to the checked loopback address (local development and tests only;
   * a production Worker with it on refuses every request).
   */
  ALLOW_LOOPBACK_URLS?: string;
  /** Secret guarding /admin/v1 (the operator CLI). */
  OPERATOR_TOKEN?: string;
  /** Secret for HMAC-signed media URLs. */
  MEDIA_SIGNING_SECRET?: string;
  /** DNS-over-HTTPS endpoint (JSON API) used to check outbound URLs; default Cloudflare's (a local stand-in in tests). */
  DOH_URL?: string;
  /** Job lease length in seconds (default 120); shortened in tests. */
  JOB_LEASE_SECONDS?: string;
  /** Public base URL override (for signed URLs behind a custom domain). */
  PUBLIC_BASE_URL?: string;
  /**
   * Origin that session hub share links point at (a custom domain routed to this Worker, e.g.
   * `https://watch.example.com`); default: PUBLIC_BASE_URL, else the request's origin.
   */
  HUB_BASE_URL?: string;
  /** Secret for signed hub share links (16+ characters); unset, a key derived from MEDIA_SIGNING_SECRET. Rotating it revokes every link. */
  HUB_SIGNING_SECRET?: string;
  /** Stripe secret key for auto-recharge charges and top-up links (services/payments.ts); unset ⇒ no charges. */
  STRIPE_SECRET_KEY?: string;
  /**
   * Signing secret (`whsec_…`) of the payment webhook (`/payments/webhook`): Stripe's, or the
   * local stand-in's. Unset ⇒ no top-up links (nothing could confirm them).
   */
  STRIPE_WEBHOOK_SECRET?: string;
  /**
   * "true" (and no STRIPE_SECRET_KEY) puts the local stand-in for Stripe behind the payment
   * interface: checkout pages of this Worker, Stripe-signed confirmations (local development and
   * tests only; a production Worker with it on refuses every request).
   */
  LOCAL_PAYMENTS?: string;
}

/** Per-request services handed to handlers (see middleware/services.ts). */
export interface Services {
  db: Database;
  env: Env;
  environment: Environment;
  /** Every outbound request (customer links, platform pages, webhooks, DoH) goes through it (services/http-client.ts). */
  http: HttpClient;
  /** Unix seconds. Injected so sweeps and expiry can be tested. */
  now: () => number;
}

export interface AuthContext {
  orgId: string;
  apiKeyId: string;
  keyPrefix: string;
}

export type AppEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    services: Services;
    auth: AuthContext;
    runner: { tokenId: string };
  };
};

declare global {
  namespace Cloudflare {
    // What `cloudflare:workers` and `cloudflare:test` see as `env`.
    interface Env extends HoopsEnv {
      TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    }
  }
}

type HoopsEnv = Env;
