-- Points are now stored one table per UTC day (points_<day>, made at write time with these
-- columns), each system point with its inverters packed in `inverters`. The points stored before
-- stay here and in inverter_readings, read beside the day tables until the retention removes them.
ALTER TABLE `system_daily` ADD `folded_hours` integer;--> statement-breakpoint
ALTER TABLE `system_daily` ADD `producing_hours` integer;--> statement-breakpoint
ALTER TABLE `system_daily` ADD `power_wh` integer;--> statement-breakpoint
ALTER TABLE `system_readings` ADD `ms` integer;--> statement-breakpoint
ALTER TABLE `system_readings` ADD `inverters` text;