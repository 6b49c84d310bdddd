CREATE TABLE `history_days` (
	`sys` integer NOT NULL,
	`date` text NOT NULL,
	`points` integer NOT NULL,
	`fetched_at` integer NOT NULL,
	PRIMARY KEY(`sys`, `date`)
);
