ALTER TABLE `api_keys` ADD `permissions` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `expires_at` integer;--> statement-breakpoint
CREATE INDEX `api_keys_creator_idx` ON `api_keys` (`created_by`);