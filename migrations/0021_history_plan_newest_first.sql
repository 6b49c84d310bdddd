PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_history_plan_plants` (
	`run_id` text NOT NULL,
	`system_id` text NOT NULL,
	`provider_system_id` text NOT NULL,
	`timezone` text NOT NULL,
	`dates` text NOT NULL,
	`done` integer DEFAULT 0 NOT NULL,
	`next_date` text NOT NULL,
	PRIMARY KEY(`run_id`, `system_id`),
	FOREIGN KEY (`run_id`) REFERENCES `sync_runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
DROP TABLE `history_plan_plants`;--> statement-breakpoint
ALTER TABLE `__new_history_plan_plants` RENAME TO `history_plan_plants`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `history_plan_plants_next_idx` ON `history_plan_plants` (`run_id`,`next_date`);