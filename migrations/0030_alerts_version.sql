-- Alerts raised, resolved or removed move a counter of their own ('alerts:' || org), apart from the
-- site lists' counter of portfolio changes ('lists:' || org): a vendor's alarm list and the
-- detection raise alerts all day, and a large fleet's site lists are rebuilt behind the answer for
-- those, but before it for what a member changes (see worker/fleet/read-models/cached.ts).
DROP TRIGGER `alerts_insert_lists_version`;
--> statement-breakpoint
DROP TRIGGER `alerts_resolved_lists_version`;
--> statement-breakpoint
DROP TRIGGER `alerts_delete_lists_version`;
--> statement-breakpoint
CREATE TRIGGER `alerts_insert_alerts_version` AFTER INSERT ON `alerts` BEGIN
  INSERT INTO data_versions (scope, version) VALUES ('alerts:' || NEW.org_id, 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `alerts_resolved_alerts_version` AFTER UPDATE OF `resolved` ON `alerts`
WHEN OLD.resolved IS NOT NEW.resolved BEGIN
  INSERT INTO data_versions (scope, version) VALUES ('alerts:' || NEW.org_id, 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `alerts_delete_alerts_version` AFTER DELETE ON `alerts` WHEN OLD.resolved = 0 BEGIN
  INSERT INTO data_versions (scope, version) VALUES ('alerts:' || OLD.org_id, 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
