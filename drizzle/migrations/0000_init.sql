CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`name` text,
	`hash` text NOT NULL,
	`prefix` text NOT NULL,
	`environment` text NOT NULL,
	`created` integer DEFAULT (unixepoch()) NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash_idx` ON `api_keys` (`hash`);--> statement-breakpoint
CREATE INDEX `api_keys_org_idx` ON `api_keys` (`org_id`);--> statement-breakpoint
CREATE TABLE `credit_grants` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`remaining_cents` integer NOT NULL,
	`source` text NOT NULL,
	`note` text,
	`created` integer DEFAULT (unixepoch()) NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `credit_grants_org_expiry_idx` ON `credit_grants` (`org_id`,`expires_at`);--> statement-breakpoint
CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`type` text NOT NULL,
	`created` integer DEFAULT (unixepoch()) NOT NULL,
	`data` text NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `events_org_created_idx` ON `events` (`org_id`,`created`,`id`);--> statement-breakpoint
CREATE INDEX `events_org_type_idx` ON `events` (`org_id`,`type`,`created`);--> statement-breakpoint
CREATE TABLE `groups` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`name` text NOT NULL,
	`is_default` integer DEFAULT false NOT NULL,
	`created` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `groups_org_idx` ON `groups` (`org_id`);--> statement-breakpoint
CREATE TABLE `highlights` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`org_id` text NOT NULL,
	`position` integer NOT NULL,
	`shot_id` text NOT NULL,
	`shot_index` integer,
	`length_seconds` real NOT NULL,
	`is_lowlight` integer NOT NULL,
	`is_manual` integer NOT NULL,
	`player_id` text,
	`video` text NOT NULL,
	`preview` text NOT NULL,
	`created` integer,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `highlights_session_idx` ON `highlights` (`session_id`,`position`);--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`org_id` text NOT NULL,
	`status` text NOT NULL,
	`download_url` text,
	`lease_id` text,
	`lease_expires_at` integer,
	`runner_token_id` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`progress_stage` text,
	`progress_percent` integer,
	`cancel_requested` integer DEFAULT false NOT NULL,
	`created` integer DEFAULT (unixepoch()) NOT NULL,
	`updated` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_session_idx` ON `jobs` (`session_id`);--> statement-breakpoint
CREATE INDEX `jobs_status_idx` ON `jobs` (`status`,`created`);--> statement-breakpoint
CREATE TABLE `organizations` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`created` integer DEFAULT (unixepoch()) NOT NULL,
	`auto_recharge_threshold_cents` integer,
	`auto_recharge_amount_cents` integer,
	`payment_customer_id` text,
	`payment_method_id` text,
	`last_auto_recharge_at` integer
);
--> statement-breakpoint
CREATE TABLE `players` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`org_id` text NOT NULL,
	`position` integer NOT NULL,
	`name` text,
	`jersey` text,
	`user_id` text,
	`team_id` integer,
	`metadata` text NOT NULL,
	`stats` text NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `players_session_idx` ON `players` (`session_id`,`position`);--> statement-breakpoint
CREATE TABLE `runner_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text,
	`hash` text NOT NULL,
	`prefix` text NOT NULL,
	`created` integer DEFAULT (unixepoch()) NOT NULL,
	`revoked_at` integer,
	`last_seen_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `runner_tokens_hash_idx` ON `runner_tokens` (`hash`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`group_id` text NOT NULL,
	`api_key_id` text,
	`status` text NOT NULL,
	`source_type` text NOT NULL,
	`source_url` text,
	`upload_id` text,
	`metadata` text NOT NULL,
	`options` text NOT NULL,
	`rosters` text,
	`dedupe_key` text,
	`declared_duration_seconds` integer,
	`duration_seconds` integer,
	`cost_cents` integer,
	`run_version` integer,
	`video` text,
	`artifacts` text,
	`totals` text,
	`shot_count` integer DEFAULT 0 NOT NULL,
	`highlight_count` integer DEFAULT 0 NOT NULL,
	`player_count` integer DEFAULT 0 NOT NULL,
	`error_code` text,
	`error_message` text,
	`created` integer DEFAULT (unixepoch()) NOT NULL,
	`updated` integer DEFAULT (unixepoch()) NOT NULL,
	`completed_at` integer,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`group_id`) REFERENCES `groups`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `sessions_org_created_idx` ON `sessions` (`org_id`,`created`,`id`);--> statement-breakpoint
CREATE INDEX `sessions_dedupe_idx` ON `sessions` (`org_id`,`dedupe_key`,`created`);--> statement-breakpoint
CREATE INDEX `sessions_status_updated_idx` ON `sessions` (`status`,`updated`);--> statement-breakpoint
CREATE TABLE `shots` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`org_id` text NOT NULL,
	`position` integer NOT NULL,
	`shot_index` integer,
	`start_seconds` real,
	`end_seconds` real,
	`made` integer,
	`points` integer,
	`type` text NOT NULL,
	`is_three_point` integer,
	`is_free_throw` integer NOT NULL,
	`is_fouled` integer NOT NULL,
	`location` text NOT NULL,
	`excitement_score` real,
	`scorer_id` text,
	`assister_id` text,
	`rebounder_id` text,
	`highlight_id` text,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `shots_session_idx` ON `shots` (`session_id`,`position`);--> statement-breakpoint
CREATE TABLE `uploads` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`size` integer NOT NULL,
	`content_type` text NOT NULL,
	`filename` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`r2_key` text NOT NULL,
	`created` integer DEFAULT (unixepoch()) NOT NULL,
	`expires_at` integer NOT NULL,
	`completed_at` integer,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `uploads_org_idx` ON `uploads` (`org_id`);--> statement-breakpoint
CREATE INDEX `uploads_status_expiry_idx` ON `uploads` (`status`,`expires_at`);--> statement-breakpoint
CREATE TABLE `usage_events` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`session_id` text NOT NULL,
	`api_key_id` text,
	`status` text NOT NULL,
	`held_cents` integer NOT NULL,
	`settled_cents` integer,
	`estimated_seconds` integer NOT NULL,
	`measured_seconds` integer,
	`created` integer DEFAULT (unixepoch()) NOT NULL,
	`settled_at` integer,
	`voided_at` integer,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `usage_events_session_idx` ON `usage_events` (`session_id`);--> statement-breakpoint
CREATE INDEX `usage_events_org_idx` ON `usage_events` (`org_id`,`status`,`created`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`event_id` text NOT NULL,
	`endpoint_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`status_code` integer,
	`latency_ms` integer,
	`error` text,
	`succeeded` integer NOT NULL,
	`created` integer DEFAULT (unixepoch()) NOT NULL,
	`next_attempt_at` integer
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_event_idx` ON `webhook_deliveries` (`event_id`,`endpoint_id`);--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`url` text NOT NULL,
	`secret` text NOT NULL,
	`status` text DEFAULT 'enabled' NOT NULL,
	`disabled_reason` text,
	`failing_since` integer,
	`created` integer DEFAULT (unixepoch()) NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhook_endpoints_org_idx` ON `webhook_endpoints` (`org_id`);