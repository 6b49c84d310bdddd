ALTER TABLE `monitoring_systems` ADD `provider_group` text;--> statement-breakpoint
ALTER TABLE `monitoring_systems` ADD `listed_at` integer;--> statement-breakpoint
ALTER TABLE `provider_connections` ADD `lists_read_at` integer;--> statement-breakpoint
ALTER TABLE `sync_runs` ADD `reads_lists` integer DEFAULT true NOT NULL;