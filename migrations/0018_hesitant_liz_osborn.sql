ALTER TABLE `alert_events` ADD `facts` text;--> statement-breakpoint
ALTER TABLE `alerts` ADD `facts` text;