PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_fleet_store_sizes` (
	`org_id` text NOT NULL,
	`shard` integer DEFAULT 0 NOT NULL,
	`bytes` integer NOT NULL,
	`bound_bytes` integer NOT NULL,
	`reported_at` integer NOT NULL,
	`over_since` integer,
	PRIMARY KEY(`org_id`, `shard`),
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_fleet_store_sizes`("org_id", "shard", "bytes", "bound_bytes", "reported_at", "over_since") SELECT "org_id", 0, "bytes", "bound_bytes", "reported_at", "over_since" FROM `fleet_store_sizes`;--> statement-breakpoint
DROP TABLE `fleet_store_sizes`;--> statement-breakpoint
ALTER TABLE `__new_fleet_store_sizes` RENAME TO `fleet_store_sizes`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `fleet_store_sizes_bytes_idx` ON `fleet_store_sizes` (`bytes`);