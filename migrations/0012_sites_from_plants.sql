ALTER TABLE `monitoring_systems` ADD `auto_site_at` integer;--> statement-breakpoint
ALTER TABLE `organizations` ADD `auto_create_sites` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `sites` ADD `location_source` text DEFAULT 'verified' NOT NULL;