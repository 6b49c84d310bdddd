CREATE TABLE `alert_events` (
	`id` text PRIMARY KEY NOT NULL,
	`alert_id` text NOT NULL,
	`org_id` text NOT NULL,
	`kind` text NOT NULL,
	`actor_id` text,
	`rule` text,
	`note` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`alert_id`) REFERENCES `alerts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `alert_events_alert_created_idx` ON `alert_events` (`alert_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `alert_rules` (
	`org_id` text NOT NULL,
	`rule` text NOT NULL,
	`enabled` integer NOT NULL,
	`delay_minutes` integer NOT NULL,
	`clear_minutes` integer NOT NULL,
	`window_minutes` integer,
	`threshold_pct` real,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`org_id`, `rule`),
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `email_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text,
	`user_id` text,
	`kind` text NOT NULL,
	`to_email` text NOT NULL,
	`subject` text NOT NULL,
	`html` text NOT NULL,
	`text` text NOT NULL,
	`attachments` text,
	`created_at` integer NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer,
	`sent_at` integer,
	`last_error` text
);
--> statement-breakpoint
CREATE INDEX `email_outbox_due_idx` ON `email_outbox` (`sent_at`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `email_outbox_user_kind_idx` ON `email_outbox` (`user_id`,`kind`,`created_at`);--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`alert_id` text,
	`title` text NOT NULL,
	`severity` text,
	`created_at` integer NOT NULL,
	`read_at` integer,
	`emailed_at` integer,
	`email_pending` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`alert_id`) REFERENCES `alerts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `notifications_user_created_idx` ON `notifications` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `notifications_email_pending_idx` ON `notifications` (`email_pending`,`user_id`);--> statement-breakpoint
CREATE TABLE `password_resets` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `password_resets_user_idx` ON `password_resets` (`user_id`);--> statement-breakpoint
CREATE INDEX `password_resets_expires_idx` ON `password_resets` (`expires_at`);--> statement-breakpoint
ALTER TABLE `alerts` ADD `rule` text DEFAULT 'vendor_alarm' NOT NULL;--> statement-breakpoint
ALTER TABLE `alerts` ADD `open_key` text;--> statement-breakpoint
ALTER TABLE `alerts` ADD `lost_energy_wh` real;--> statement-breakpoint
ALTER TABLE `alerts` ADD `last_seen_at` integer;--> statement-breakpoint
ALTER TABLE `alerts` ADD `acknowledged_at` integer;--> statement-breakpoint
ALTER TABLE `alerts` ADD `acknowledged_by` text;--> statement-breakpoint
ALTER TABLE `alerts` ADD `assigned_to` text;--> statement-breakpoint
CREATE UNIQUE INDEX `alerts_org_open_key_unique` ON `alerts` (`org_id`,`open_key`);