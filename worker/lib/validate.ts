import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { ZodType } from "zod";
import { invalidInput } from "./errors";

/** The media types Hono's JSON validator parses; any other body would be read as `{}`. */
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

/** The one zod hook at the route edge: every failure is `validation_failed` with zod's issues as details. */
export const validate = <Target extends keyof ValidationTargets, Schema extends ZodType>(
  target: Target,
  schema: Schema,
) =>
  describedInput(
    target,
    schema,
    zValidator(target, schema, (result, c) => {
      // Hono skips JSON parsing for another content type, so a form or text body would
      // otherwise pass as an empty object (and an all-optional schema would accept it).
      const mediaType = (c.req.header("Content-Type") ?? "").split(";")[0]?.trim() ?? "";
      if (result.target === "json" && !JSON_MEDIA_TYPE.test(mediaType)) {
        throw invalidInput("Invalid input", [
          {
            path: [],
            message: "Send the body as JSON (Content-Type: application/json)",
            code: "invalid_type",
          },
        ]);
      }
      if (!result.success) {
        throw invalidInput(
          "Invalid input",
          result.error.issues.map(({ path, message, code }) => ({ path, message, code })),
        );
      }
    }),
  );

/** What a validator checks, kept on it so the OpenAPI document is built from the same schemas. */
export interface DescribedInput {
  target: keyof ValidationTargets;
  schema: ZodType;
}
export const INPUT_DESCRIPTION = Symbol("input description");

function describedInput<Middleware extends object>(
  target: keyof ValidationTargets,
  schema: ZodType,
  middleware: Middleware,
): Middleware {
  return Object.assign(middleware, { [INPUT_DESCRIPTION]: { target, schema } satisfies DescribedInput });
}
