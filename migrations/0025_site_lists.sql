DROP INDEX `monitoring_systems_org_site_idx`;--> statement-breakpoint
CREATE INDEX `monitoring_systems_org_site_name_idx` ON `monitoring_systems` (`org_id`,`site_id`,`name`,`id`);--> statement-breakpoint
ALTER TABLE `sites` ADD `label` text;--> statement-breakpoint
CREATE INDEX `portfolio_sites_org_idx` ON `portfolio_sites` (`org_id`);--> statement-breakpoint
-- The site lists' counter of alert and portfolio changes (worker/data/site-lists.ts): an alert raised,
-- resolved, reopened or removed, or a portfolio renamed or its sites changed, bumps it.
CREATE TRIGGER `alerts_insert_lists_version` AFTER INSERT ON `alerts` BEGIN
  INSERT INTO data_versions (scope, version) VALUES ('lists:' || NEW.org_id, 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `alerts_resolved_lists_version` AFTER UPDATE OF `resolved` ON `alerts`
WHEN OLD.resolved IS NOT NEW.resolved BEGIN
  INSERT INTO data_versions (scope, version) VALUES ('lists:' || NEW.org_id, 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `alerts_delete_lists_version` AFTER DELETE ON `alerts` WHEN OLD.resolved = 0 BEGIN
  INSERT INTO data_versions (scope, version) VALUES ('lists:' || OLD.org_id, 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `portfolio_sites_insert_lists_version` AFTER INSERT ON `portfolio_sites` BEGIN
  INSERT INTO data_versions (scope, version) VALUES ('lists:' || NEW.org_id, 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `portfolio_sites_delete_lists_version` AFTER DELETE ON `portfolio_sites` BEGIN
  INSERT INTO data_versions (scope, version) VALUES ('lists:' || OLD.org_id, 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `portfolios_update_lists_version` AFTER UPDATE OF `name` ON `portfolios` BEGIN
  INSERT INTO data_versions (scope, version) VALUES ('lists:' || NEW.org_id, 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
