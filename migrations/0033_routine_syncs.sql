DROP INDEX `provider_connections_due_idx`;--> statement-breakpoint
ALTER TABLE `provider_connections` ADD `routine_syncs` integer DEFAULT 0 NOT NULL;