-- A sync page marks its plants as listed (listed_at) each time it reads the vendor's plant list:
-- that alone changes nothing a read model shows, so it no longer moves the organisation's counter
-- (it did on every page of every sync, and the site lists were rebuilt before answering each time).
DROP TRIGGER `monitoring_systems_update_version`;
--> statement-breakpoint
CREATE TRIGGER `monitoring_systems_update_version` AFTER UPDATE OF `id`, `org_id`, `connection_id`, `provider`,
  `provider_system_id`, `name`, `address`, `latitude`, `longitude`, `timezone`, `capacity_w`, `provider_group`,
  `state`, `created_at`, `updated_at`, `site_id`, `auto_site_at`, `tilt_deg`, `azimuth_deg`, `ac_limit_kw`
  ON `monitoring_systems` BEGIN
  INSERT INTO data_versions (scope, version) VALUES ('org:' || NEW.org_id, 1)
    ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
