CREATE INDEX `alerts_resolved_at_idx` ON `alerts` (`resolved_at`);--> statement-breakpoint
CREATE INDEX `audit_logs_created_idx` ON `audit_logs` (`created_at`);--> statement-breakpoint
CREATE INDEX `irradiance_hourly_hour_idx` ON `irradiance_hourly` (`hour_start`);--> statement-breakpoint
CREATE INDEX `notifications_alert_idx` ON `notifications` (`alert_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `notifications_read_idx` ON `notifications` (`read_at`);