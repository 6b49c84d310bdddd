CREATE TABLE `fleet_store_sizes` (
	`org_id` text PRIMARY KEY NOT NULL,
	`bytes` integer NOT NULL,
	`bound_bytes` integer NOT NULL,
	`reported_at` integer NOT NULL,
	`over_since` integer,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `fleet_store_sizes_bytes_idx` ON `fleet_store_sizes` (`bytes`);