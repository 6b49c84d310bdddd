-- Readings and hourly rollups are read as one system's time range: WITHOUT ROWID stores them in
-- key order (system_id, time), so a week of one system is a few adjacent pages instead of one
-- page per row scattered among every other system's syncs. Same columns and keys as before.
CREATE TABLE `system_readings_clustered` (
	`system_id` text NOT NULL,
	`time` integer NOT NULL,
	`power_w` real,
	`energy_today_wh` real,
	`state` text NOT NULL,
	PRIMARY KEY(`system_id`, `time`),
	FOREIGN KEY (`system_id`) REFERENCES `monitoring_systems`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `system_readings_clustered` SELECT `system_id`, `time`, `power_w`, `energy_today_wh`, `state` FROM `system_readings`;
--> statement-breakpoint
DROP TABLE `system_readings`;
--> statement-breakpoint
ALTER TABLE `system_readings_clustered` RENAME TO `system_readings`;
--> statement-breakpoint
CREATE TABLE `system_energy_hourly_clustered` (
	`system_id` text NOT NULL,
	`hour_start` integer NOT NULL,
	`avg_power_w` real,
	`samples` integer NOT NULL,
	PRIMARY KEY(`system_id`, `hour_start`),
	FOREIGN KEY (`system_id`) REFERENCES `monitoring_systems`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `system_energy_hourly_clustered` SELECT `system_id`, `hour_start`, `avg_power_w`, `samples` FROM `system_energy_hourly`;
--> statement-breakpoint
DROP TABLE `system_energy_hourly`;
--> statement-breakpoint
ALTER TABLE `system_energy_hourly_clustered` RENAME TO `system_energy_hourly`;
--> statement-breakpoint
-- Rollup writes bump their organisation's counter too (the fleet series reads them; see 0005).
CREATE TRIGGER `system_energy_hourly_insert_version` AFTER INSERT ON `system_energy_hourly` BEGIN
  INSERT INTO data_versions (scope, version)
    SELECT 'org:' || org_id, 1 FROM monitoring_systems WHERE id = NEW.system_id
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `system_energy_hourly_update_version` AFTER UPDATE ON `system_energy_hourly` BEGIN
  INSERT INTO data_versions (scope, version)
    SELECT 'org:' || org_id, 1 FROM monitoring_systems WHERE id = NEW.system_id
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `system_energy_hourly_delete_version` AFTER DELETE ON `system_energy_hourly` BEGIN
  INSERT INTO data_versions (scope, version)
    SELECT 'org:' || org_id, 1 FROM monitoring_systems WHERE id = OLD.system_id
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `system_energy_daily_insert_version` AFTER INSERT ON `system_energy_daily` BEGIN
  INSERT INTO data_versions (scope, version)
    SELECT 'org:' || org_id, 1 FROM monitoring_systems WHERE id = NEW.system_id
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `system_energy_daily_update_version` AFTER UPDATE ON `system_energy_daily` BEGIN
  INSERT INTO data_versions (scope, version)
    SELECT 'org:' || org_id, 1 FROM monitoring_systems WHERE id = NEW.system_id
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `system_energy_daily_delete_version` AFTER DELETE ON `system_energy_daily` BEGIN
  INSERT INTO data_versions (scope, version)
    SELECT 'org:' || org_id, 1 FROM monitoring_systems WHERE id = OLD.system_id
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
