import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { ZodType } from "zod";
import { badRequest } from "./errors";

/** zod validation at the route edge; every failure is one 400 shape with zod's issues as details. */
export const validate = <Target extends keyof ValidationTargets, Schema extends ZodType>(
  target: Target,
  schema: Schema,
) =>
  zValidator(target, schema, (result) => {
    if (!result.success) {
      throw badRequest(
        "Invalid input",
        result.error.issues.map(({ path, message, code }) => ({ path, message, code })),
      );
    }
  });
