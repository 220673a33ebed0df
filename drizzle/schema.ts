// The single source of truth for the data model. Migrations in
// drizzle/migrations are generated from this file by `npm run db:generate`.
// Timestamps are integer Unix seconds; money is integer cents; every row that
// belongs to a customer carries `org_id` so every query can be scoped to it.
import { sql } from "drizzle-orm";
import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { CourtFoundBy, CourtTypeId } from "../contract/court-types";

const now = sql`(unixepoch())`;

export const organizations = sqliteTable("organizations", {
  id: text("id").primaryKey(), // org_…
  name: text("name").notNull(),
  created: integer("created").notNull().default(now),
  // Auto-recharge: when a settle drops available credit below the threshold,
  // charge `amount` off-session on the saved payment method, at most hourly.
  autoRechargeThresholdCents: integer("auto_recharge_threshold_cents"),
  autoRechargeAmountCents: integer("auto_recharge_amount_cents"),
  paymentCustomerId: text("payment_customer_id"),
  paymentMethodId: text("payment_method_id"),
  lastAutoRechargeAt: integer("last_auto_recharge_at"),
});

export const groups = sqliteTable(
  "groups",
  {
    id: text("id").primaryKey(), // grp_…
    orgId: text("org_id").notNull().references(() => organizations.id),
    name: text("name").notNull(),
    isDefault: integer("is_default", { mode: "boolean" }).notNull().default(false),
    created: integer("created").notNull().default(now),
  },
  (t) => [index("groups_org_idx").on(t.orgId)],
);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(), // key_…
    orgId: text("org_id").notNull().references(() => organizations.id),
    name: text("name"),
    // SHA-256 of the plaintext, hex. The plaintext is shown once and never stored.
    hash: text("hash").notNull(),
    // First characters of the plaintext (e.g. `hk_stg_AbC4`), for display only.
    prefix: text("prefix").notNull(),
    environment: text("environment", { enum: ["prod", "stg"] }).notNull(),
    created: integer("created").notNull().default(now),
    revokedAt: integer("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_hash_idx").on(t.hash), index("api_keys_org_idx").on(t.orgId)],
);

export const runnerTokens = sqliteTable(
  "runner_tokens",
  {
    id: text("id").primaryKey(), // rt_…
    name: text("name"),
    hash: text("hash").notNull(),
    prefix: text("prefix").notNull(),
    created: integer("created").notNull().default(now),
    revokedAt: integer("revoked_at"),
    lastSeenAt: integer("last_seen_at"),
  },
  (t) => [uniqueIndex("runner_tokens_hash_idx").on(t.hash)],
);

export const uploads = sqliteTable(
  "uploads",
  {
    id: text("id").primaryKey(), // up_…
    orgId: text("org_id").notNull().references(() => organizations.id),
    size: integer("size").notNull(),
    contentType: text("content_type").notNull(),
    filename: text("filename"),
    status: text("status", { enum: ["pending", "complete", "expired", "deleted"] }).notNull().default("pending"),
    r2Key: text("r2_key").notNull(),
    created: integer("created").notNull().default(now),
    expiresAt: integer("expires_at").notNull(),
    completedAt: integer("completed_at"),
  },
  (t) => [index("uploads_org_idx").on(t.orgId), index("uploads_status_expiry_idx").on(t.status, t.expiresAt)],
);

export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(), // sess_…
    orgId: text("org_id").notNull().references(() => organizations.id),
    groupId: text("group_id").notNull().references(() => groups.id),
    apiKeyId: text("api_key_id"),
    status: text("status", { enum: ["queued", "processing", "processed", "failed"] }).notNull(),
    sourceType: text("source_type", { enum: ["upload", "url", "veo"] }).notNull(),
    sourceUrl: text("source_url"),
    uploadId: text("upload_id"),
    metadata: text("metadata", { mode: "json" }).$type<Record<string, string>>().notNull(),
    options: text("options", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    rosters: text("rosters", { mode: "json" }).$type<unknown>(),
    // Hash of (source url, options, metadata, group) for URL sources: the same
    // link with the same settings within 24 hours returns the earlier session.
    dedupeKey: text("dedupe_key"),
    declaredDurationSeconds: integer("declared_duration_seconds"),
    durationSeconds: integer("duration_seconds"),
    costCents: integer("cost_cents"),
    runVersion: integer("run_version"),
    video: text("video", { mode: "json" }).$type<Record<string, unknown>>(),
    artifacts: text("artifacts", { mode: "json" }).$type<Record<string, string | null>>(),
    totals: text("totals", { mode: "json" }).$type<Record<string, number>>(),
    shotCount: integer("shot_count").notNull().default(0),
    highlightCount: integer("highlight_count").notNull().default(0),
    playerCount: integer("player_count").notNull().default(0),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    created: integer("created").notNull().default(now),
    updated: integer("updated").notNull().default(now),
    completedAt: integer("completed_at"),
  },
  (t) => [
    index("sessions_org_created_idx").on(t.orgId, t.created, t.id),
    index("sessions_dedupe_idx").on(t.orgId, t.dedupeKey, t.created),
    index("sessions_status_updated_idx").on(t.status, t.updated),
  ],
);

export const players = sqliteTable(
  "players",
  {
    id: text("id").primaryKey(), // plr_…
    sessionId: text("session_id").notNull().references(() => sessions.id),
    orgId: text("org_id").notNull(),
    position: integer("position").notNull(),
    name: text("name"),
    jersey: text("jersey"),
    userId: text("user_id"),
    teamId: integer("team_id"),
    metadata: text("metadata", { mode: "json" }).$type<Record<string, string>>().notNull(),
    stats: text("stats", { mode: "json" }).$type<Record<string, number>>().notNull(),
  },
  (t) => [index("players_session_idx").on(t.sessionId, t.position)],
);

export const shots = sqliteTable(
  "shots",
  {
    id: text("id").primaryKey(), // shot_…
    sessionId: text("session_id").notNull().references(() => sessions.id),
    orgId: text("org_id").notNull(),
    position: integer("position").notNull(),
    shotIndex: integer("shot_index"),
    startSeconds: real("start_seconds"),
    endSeconds: real("end_seconds"),
    made: integer("made", { mode: "boolean" }),
    points: integer("points"),
    type: text("type").notNull(),
    isThreePoint: integer("is_three_point", { mode: "boolean" }),
    isFreeThrow: integer("is_free_throw", { mode: "boolean" }).notNull(),
    isFouled: integer("is_fouled", { mode: "boolean" }).notNull(),
    location: text("location", { mode: "json" }).$type<Record<string, number[] | null>>().notNull(),
    /** The court `location.shot_world_normed` is measured on (the runner's `shots[].court`); null without one. Shown on the hub page, not in the API's Shot. */
    court: text("court", { mode: "json" }).$type<{ type: CourtTypeId; found_by: CourtFoundBy } | null>(),
    excitementScore: real("excitement_score"),
    scorerId: text("scorer_id"),
    assisterId: text("assister_id"),
    rebounderId: text("rebounder_id"),
    highlightId: text("highlight_id"),
  },
  (t) => [index("shots_session_idx").on(t.sessionId, t.position)],
);

export const highlights = sqliteTable(
  "highlights",
  {
    id: text("id").primaryKey(), // hl_…
    sessionId: text("session_id").notNull().references(() => sessions.id),
    orgId: text("org_id").notNull(),
    position: integer("position").notNull(),
    shotId: text("shot_id").notNull(),
    shotIndex: integer("shot_index"),
    lengthSeconds: real("length_seconds").notNull(),
    isLowlight: integer("is_lowlight", { mode: "boolean" }).notNull(),
    isManual: integer("is_manual", { mode: "boolean" }).notNull(),
    playerId: text("player_id"),
    // R2 object keys per rendition; turned into signed URLs when read.
    video: text("video", { mode: "json" }).$type<Record<string, string | null>>().notNull(),
    preview: text("preview", { mode: "json" }).$type<Record<string, string | null>>().notNull(),
    created: integer("created"),
  },
  (t) => [index("highlights_session_idx").on(t.sessionId, t.position)],
);

export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(), // job_…
    sessionId: text("session_id").notNull().references(() => sessions.id),
    orgId: text("org_id").notNull(),
    // pending: waiting for the jobs queue consumer to check the source;
    // ready: claimable; leased: a runner holds it; done / failed: final.
    status: text("status", { enum: ["pending", "ready", "leased", "done", "failed"] }).notNull(),
    downloadUrl: text("download_url"),
    leaseId: text("lease_id"),
    leaseExpiresAt: integer("lease_expires_at"),
    runnerTokenId: text("runner_token_id"),
    attempts: integer("attempts").notNull().default(0),
    progressStage: text("progress_stage"),
    progressPercent: integer("progress_percent"),
    cancelRequested: integer("cancel_requested", { mode: "boolean" }).notNull().default(false),
    created: integer("created").notNull().default(now),
    updated: integer("updated").notNull().default(now),
  },
  (t) => [uniqueIndex("jobs_session_idx").on(t.sessionId), index("jobs_status_idx").on(t.status, t.created)],
);

export const creditGrants = sqliteTable(
  "credit_grants",
  {
    id: text("id").primaryKey(), // cg_…
    orgId: text("org_id").notNull().references(() => organizations.id),
    amountCents: integer("amount_cents").notNull(),
    remainingCents: integer("remaining_cents").notNull(),
    source: text("source", { enum: ["invoice", "card_top_up", "auto_recharge", "promotional", "manual"] }).notNull(),
    note: text("note"),
    // The payment provider's id of the payment that bought this grant (for a top-up link, its
    // Checkout Session `cs_…`). Unique: one payment grants credit once, however often its
    // confirmation arrives (services/top-up-links.ts).
    paymentId: text("payment_id"),
    created: integer("created").notNull().default(now),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("credit_grants_org_expiry_idx").on(t.orgId, t.expiresAt), uniqueIndex("credit_grants_payment_idx").on(t.paymentId)],
);

// Card top-up links: a hosted payment page (Stripe Checkout, or the local stand-in) for a fixed
// amount, created by the operator. Paid ⇒ one `card_top_up` credit grant, on the provider's
// signed confirmation. `status` is `open` until paid; an open link past `expires_at` reads as expired.
export const topUpLinks = sqliteTable(
  "top_up_links",
  {
    id: text("id").primaryKey(), // tul_…
    orgId: text("org_id").notNull().references(() => organizations.id),
    amountCents: integer("amount_cents").notNull(),
    provider: text("provider", { enum: ["stripe", "local"] }).notNull(),
    // The provider's checkout id (`cs_…`): what its confirmations name.
    checkoutId: text("checkout_id").notNull(),
    url: text("url").notNull(),
    status: text("status", { enum: ["open", "paid"] }).notNull().default("open"),
    created: integer("created").notNull().default(now),
    expiresAt: integer("expires_at").notNull(),
    paidAt: integer("paid_at"),
    creditGrantId: text("credit_grant_id"),
  },
  (t) => [uniqueIndex("top_up_links_checkout_idx").on(t.checkoutId), index("top_up_links_org_idx").on(t.orgId, t.created)],
);

export const usageEvents = sqliteTable(
  "usage_events",
  {
    id: text("id").primaryKey(), // ue_…
    orgId: text("org_id").notNull().references(() => organizations.id),
    sessionId: text("session_id").notNull(),
    apiKeyId: text("api_key_id"),
    status: text("status", { enum: ["held", "settled", "voided"] }).notNull(),
    heldCents: integer("held_cents").notNull(),
    settledCents: integer("settled_cents"),
    estimatedSeconds: integer("estimated_seconds").notNull(),
    measuredSeconds: integer("measured_seconds"),
    created: integer("created").notNull().default(now),
    settledAt: integer("settled_at"),
    voidedAt: integer("voided_at"),
  },
  (t) => [uniqueIndex("usage_events_session_idx").on(t.sessionId), index("usage_events_org_idx").on(t.orgId, t.status, t.created)],
);

export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(), // we_…
    orgId: text("org_id").notNull().references(() => organizations.id),
    url: text("url").notNull(),
    description: text("description"),
    // Kept in plaintext because signing needs it; shown to the customer once.
    secret: text("secret").notNull(),
    status: text("status", { enum: ["enabled", "disabled"] }).notNull().default("enabled"),
    disabledReason: text("disabled_reason"),
    failingSince: integer("failing_since"),
    created: integer("created").notNull().default(now),
    deletedAt: integer("deleted_at"),
  },
  (t) => [index("webhook_endpoints_org_idx").on(t.orgId)],
);

export const events = sqliteTable(
  "events",
  {
    id: text("id").primaryKey(), // evt_…
    orgId: text("org_id").notNull().references(() => organizations.id),
    type: text("type").notNull(),
    created: integer("created").notNull().default(now),
    data: text("data", { mode: "json" }).$type<{ object: unknown }>().notNull(),
  },
  (t) => [index("events_org_created_idx").on(t.orgId, t.created, t.id), index("events_org_type_idx").on(t.orgId, t.type, t.created)],
);

export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(), // whd_…
    orgId: text("org_id").notNull(),
    eventId: text("event_id").notNull(),
    endpointId: text("endpoint_id").notNull(),
    attempt: integer("attempt").notNull(),
    statusCode: integer("status_code"),
    latencyMs: integer("latency_ms"),
    error: text("error"),
    succeeded: integer("succeeded", { mode: "boolean" }).notNull(),
    created: integer("created").notNull().default(now),
    nextAttemptAt: integer("next_attempt_at"),
  },
  (t) => [index("webhook_deliveries_event_idx").on(t.eventId, t.endpointId)],
);
