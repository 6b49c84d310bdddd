CREATE TABLE `org_tariffs` (
	`org_id` text NOT NULL,
	`currency` text NOT NULL,
	`price_per_kwh` real NOT NULL,
	`valid_from` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`org_id`, `valid_from`),
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `site_tariffs` (
	`site_id` text NOT NULL,
	`org_id` text NOT NULL,
	`currency` text NOT NULL,
	`price_per_kwh` real NOT NULL,
	`valid_from` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`site_id`, `valid_from`),
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `site_tariffs_org_idx` ON `site_tariffs` (`org_id`);--> statement-breakpoint
ALTER TABLE `monitoring_systems` ADD `tilt_deg` real;--> statement-breakpoint
ALTER TABLE `monitoring_systems` ADD `azimuth_deg` real;--> statement-breakpoint
ALTER TABLE `monitoring_systems` ADD `ac_limit_kw` real;--> statement-breakpoint
-- Prices value the organisation's losses: a change bumps its counter as system writes do (0005).
CREATE TRIGGER `site_tariffs_insert_version` AFTER INSERT ON `site_tariffs` BEGIN
  INSERT INTO data_versions (scope, version) VALUES ('org:' || NEW.org_id, 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `site_tariffs_update_version` AFTER UPDATE ON `site_tariffs` BEGIN
  INSERT INTO data_versions (scope, version) VALUES ('org:' || NEW.org_id, 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `site_tariffs_delete_version` AFTER DELETE ON `site_tariffs` BEGIN
  INSERT INTO data_versions (scope, version) VALUES ('org:' || OLD.org_id, 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `org_tariffs_insert_version` AFTER INSERT ON `org_tariffs` BEGIN
  INSERT INTO data_versions (scope, version) VALUES ('org:' || NEW.org_id, 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `org_tariffs_update_version` AFTER UPDATE ON `org_tariffs` BEGIN
  INSERT INTO data_versions (scope, version) VALUES ('org:' || NEW.org_id, 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `org_tariffs_delete_version` AFTER DELETE ON `org_tariffs` BEGIN
  INSERT INTO data_versions (scope, version) VALUES ('org:' || OLD.org_id, 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
