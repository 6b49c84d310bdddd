-- Written by hand: drizzle-kit cuts an expression index at its commas.
CREATE INDEX `alerts_org_resolved_loss_idx` ON `alerts` (`org_id`,`resolved`,coalesce("lost_energy_wh", -1) desc,"created_at" desc,`id`);
