ALTER TABLE `provider_connections` ADD `lease_run_id` text;--> statement-breakpoint
ALTER TABLE `sync_runs` ADD `cursor` text;--> statement-breakpoint
ALTER TABLE `sync_runs` ADD `unit_seq` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `sync_runs` ADD `pages_done` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `sync_runs` ADD `pages_total` integer;--> statement-breakpoint
ALTER TABLE `sync_runs` ADD `systems_stored` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `sync_runs` ADD `invocations` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `sync_runs` ADD `longest_invocation_ms` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `sync_runs` ADD `progress_at` integer;--> statement-breakpoint
CREATE INDEX `sync_runs_status_progress_idx` ON `sync_runs` (`status`,`progress_at`);