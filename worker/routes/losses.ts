import { Hono } from "hono";
import {
  lossesAnswerSchema,
  lossesQuerySchema,
  lossRankingAnswerSchema,
  lossRankingQuerySchema,
} from "../../schema/api/losses";
import { type AppEnv, userContext } from "../hono-env";
import { jsonAnswer, jsonText } from "../lib/gzip";
import { pageLinks } from "../lib/page-links";
import { responds } from "../lib/responds";
import { validate } from "../lib/validate";
import { requireAuth } from "../middleware/auth";
import { lossesCsv, lossesOf, lossRanking } from "../services/losses";

export const lossesRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get(
    "/",
    responds("Losses", lossesAnswerSchema, { csv: true }),
    validate("query", lossesQuerySchema),
    async (c) => {
      const query = c.req.valid("query");
      const answer = await lossesOf(userContext(c), query);
      if (query.format === "csv") {
        const csv = lossesCsv(answer, query);
        return c.body(csv.body, 200, csv.headers);
      }
      return jsonAnswer(c.req.header("Accept-Encoding"), { json: jsonText(answer) });
    },
  )
  .get(
    "/ranking",
    responds("LossRanking", lossRankingAnswerSchema),
    validate("query", lossRankingQuerySchema),
    async (c) => {
      const answer = await lossRanking(userContext(c), c.req.valid("query"));
      return jsonAnswer(
        c.req.header("Accept-Encoding"),
        { json: jsonText(answer) },
        pageLinks(c.req.url, answer),
      );
    },
  );
