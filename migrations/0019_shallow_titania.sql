CREATE TABLE `history_plan_plants` (
	`run_id` text NOT NULL,
	`first_day` integer NOT NULL,
	`system_id` text NOT NULL,
	`provider_system_id` text NOT NULL,
	`timezone` text NOT NULL,
	`dates` text NOT NULL,
	PRIMARY KEY(`run_id`, `first_day`),
	FOREIGN KEY (`run_id`) REFERENCES `sync_runs`(`id`) ON UPDATE no action ON DELETE cascade
);
