CREATE TABLE `email_verifications` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `email_verifications_user_idx` ON `email_verifications` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `email_verifications_expires_idx` ON `email_verifications` (`expires_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `email_verified_at` integer DEFAULT 0;--> statement-breakpoint
ALTER TABLE `users` ADD `verification_reminded_at` integer;--> statement-breakpoint
CREATE INDEX `users_unverified_idx` ON `users` (`email_verified_at`,`created_at`);