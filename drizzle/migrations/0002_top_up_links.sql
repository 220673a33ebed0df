CREATE TABLE `top_up_links` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`provider` text NOT NULL,
	`checkout_id` text NOT NULL,
	`url` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`created` integer DEFAULT (unixepoch()) NOT NULL,
	`expires_at` integer NOT NULL,
	`paid_at` integer,
	`credit_grant_id` text,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `top_up_links_checkout_idx` ON `top_up_links` (`checkout_id`);--> statement-breakpoint
CREATE INDEX `top_up_links_org_idx` ON `top_up_links` (`org_id`,`created`);--> statement-breakpoint
ALTER TABLE `credit_grants` ADD `payment_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `credit_grants_payment_idx` ON `credit_grants` (`payment_id`);