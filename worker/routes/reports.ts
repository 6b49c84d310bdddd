import { Hono } from "hono";
import { monthlyEnergyQuerySchema, monthlyEnergySchema } from "../../schema/api/exports";
import { type AppEnv, userContext } from "../hono-env";
import { csvHeaders } from "../lib/csv";
import { responds } from "../lib/responds";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { monthlyEnergy, monthlyEnergyCsv } from "../services/exports";

export const reportsRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get(
    "/monthly-energy",
    responds("MonthlyEnergy", monthlyEnergySchema, { csv: true }),
    validate("query", monthlyEnergyQuerySchema),
    async (c) => {
      const query = c.req.valid("query");
      const report = await monthlyEnergy(userContext(c), query.month);
      if (query.format === "csv") {
        return c.body(monthlyEnergyCsv(report), 200, csvHeaders(`monthly-energy-${report.month}.csv`));
      }
      return c.json(report);
    },
  );
