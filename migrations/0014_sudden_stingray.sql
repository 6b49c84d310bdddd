ALTER TABLE `email_outbox` ADD `period` text;--> statement-breakpoint
CREATE UNIQUE INDEX `email_outbox_user_kind_period_unique` ON `email_outbox` (`user_id`,`kind`,`period`);