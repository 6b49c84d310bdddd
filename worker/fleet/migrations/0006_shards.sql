CREATE TABLE `shard_systems` (
	`system_id` text PRIMARY KEY NOT NULL,
	`shard` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `shard_systems_shard_idx` ON `shard_systems` (`shard`);--> statement-breakpoint
CREATE TABLE `shards` (
	`shard` integer PRIMARY KEY NOT NULL,
	`bytes` integer NOT NULL
);
