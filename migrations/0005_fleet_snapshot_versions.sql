CREATE TABLE `data_versions` (
	`scope` text PRIMARY KEY NOT NULL,
	`version` integer NOT NULL
);
-- Every write the dashboard metrics read bumps its organisation's counter (see schema/tables.ts dataVersions).
--> statement-breakpoint
CREATE TRIGGER `monitoring_systems_insert_version` AFTER INSERT ON `monitoring_systems` BEGIN
  INSERT INTO data_versions (scope, version) VALUES ('org:' || NEW.org_id, 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `monitoring_systems_update_version` AFTER UPDATE ON `monitoring_systems` BEGIN
  INSERT INTO data_versions (scope, version) VALUES ('org:' || NEW.org_id, 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `monitoring_systems_delete_version` AFTER DELETE ON `monitoring_systems` BEGIN
  INSERT INTO data_versions (scope, version) VALUES ('org:' || OLD.org_id, 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `inverters_insert_version` AFTER INSERT ON `inverters` BEGIN
  INSERT INTO data_versions (scope, version) VALUES ('org:' || NEW.org_id, 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `inverters_update_version` AFTER UPDATE ON `inverters` BEGIN
  INSERT INTO data_versions (scope, version) VALUES ('org:' || NEW.org_id, 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `inverters_delete_version` AFTER DELETE ON `inverters` BEGIN
  INSERT INTO data_versions (scope, version) VALUES ('org:' || OLD.org_id, 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `sites_insert_version` AFTER INSERT ON `sites` BEGIN
  INSERT INTO data_versions (scope, version) VALUES ('org:' || NEW.org_id, 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `sites_update_version` AFTER UPDATE ON `sites` BEGIN
  INSERT INTO data_versions (scope, version) VALUES ('org:' || NEW.org_id, 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `sites_delete_version` AFTER DELETE ON `sites` BEGIN
  INSERT INTO data_versions (scope, version) VALUES ('org:' || OLD.org_id, 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `irradiance_hourly_insert_version` AFTER INSERT ON `irradiance_hourly` BEGIN
  INSERT INTO data_versions (scope, version) VALUES ('irradiance', 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `irradiance_hourly_update_version` AFTER UPDATE ON `irradiance_hourly` BEGIN
  INSERT INTO data_versions (scope, version) VALUES ('irradiance', 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `irradiance_hourly_delete_version` AFTER DELETE ON `irradiance_hourly` BEGIN
  INSERT INTO data_versions (scope, version) VALUES ('irradiance', 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
