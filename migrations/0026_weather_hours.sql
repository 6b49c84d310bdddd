ALTER TABLE `irradiance_fetches` ADD `history_from` integer;--> statement-breakpoint
ALTER TABLE `irradiance_hourly` ADD `direct_wm2` real;--> statement-breakpoint
ALTER TABLE `irradiance_hourly` ADD `diffuse_wm2` real;--> statement-breakpoint
ALTER TABLE `irradiance_hourly` ADD `temperature_c` real;--> statement-breakpoint
ALTER TABLE `irradiance_hourly` ADD `wind_ms` real;--> statement-breakpoint
ALTER TABLE `irradiance_hourly` ADD `precipitation_mm` real;