-- The alert search: what it matches (the alert's title, its system's name, site name and vendor id,
-- its device's serial; a line each, so a match never spans two) in a trigram index, so a
-- search reads the matching alerts instead of every alert of the organisation. The view says
-- once what an alert's text is; triggers keep the index with the alerts, their systems and
-- sites. Keyed by the alert's rowid, which only a VACUUM renumbers.
CREATE INDEX `alerts_system_idx` ON `alerts` (`system_id`);--> statement-breakpoint
CREATE VIEW `alerts_search_text` AS
  SELECT a.rowid AS alert_rowid, a.org_id, a.system_id, ms.org_id AS system_org_id, ms.site_id,
    a.title || char(10) || coalesce(ms.name, '') || char(10) || coalesce(s.name, '')
      || char(10) || coalesce(ms.provider_system_id, '') || char(10) || coalesce(a.device_serial, '') AS body
  FROM alerts a LEFT JOIN monitoring_systems ms ON ms.id = a.system_id LEFT JOIN sites s ON s.id = ms.site_id;
--> statement-breakpoint
CREATE VIRTUAL TABLE `alerts_search` USING fts5(body, tokenize = 'trigram');
--> statement-breakpoint
INSERT INTO alerts_search (rowid, body) SELECT alert_rowid, body FROM alerts_search_text;
--> statement-breakpoint
CREATE TRIGGER `alerts_search_insert` AFTER INSERT ON `alerts` BEGIN
  INSERT INTO alerts_search (rowid, body) SELECT alert_rowid, body FROM alerts_search_text WHERE alert_rowid = NEW.rowid;
END;
--> statement-breakpoint
CREATE TRIGGER `alerts_search_delete` AFTER DELETE ON `alerts` BEGIN
  DELETE FROM alerts_search WHERE rowid = OLD.rowid;
END;
--> statement-breakpoint
CREATE TRIGGER `alerts_search_update` AFTER UPDATE OF `title`, `system_id`, `device_serial` ON `alerts`
WHEN OLD.title IS NOT NEW.title OR OLD.system_id IS NOT NEW.system_id OR OLD.device_serial IS NOT NEW.device_serial BEGIN
  DELETE FROM alerts_search WHERE rowid = NEW.rowid;
  INSERT INTO alerts_search (rowid, body) SELECT alert_rowid, body FROM alerts_search_text WHERE alert_rowid = NEW.rowid;
END;
--> statement-breakpoint
CREATE TRIGGER `alerts_search_system` AFTER UPDATE OF `name`, `site_id`, `provider_system_id` ON `monitoring_systems`
WHEN OLD.name IS NOT NEW.name OR OLD.site_id IS NOT NEW.site_id OR OLD.provider_system_id IS NOT NEW.provider_system_id BEGIN
  DELETE FROM alerts_search WHERE rowid IN (SELECT rowid FROM alerts WHERE system_id = NEW.id);
  INSERT INTO alerts_search (rowid, body) SELECT alert_rowid, body FROM alerts_search_text WHERE system_id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER `alerts_search_site` AFTER UPDATE OF `name` ON `sites` WHEN OLD.name IS NOT NEW.name BEGIN
  DELETE FROM alerts_search WHERE rowid IN (SELECT alert_rowid FROM alerts_search_text
    WHERE system_org_id = NEW.org_id AND site_id = NEW.id);
  INSERT INTO alerts_search (rowid, body) SELECT alert_rowid, body FROM alerts_search_text
    WHERE system_org_id = NEW.org_id AND site_id = NEW.id;
END;
