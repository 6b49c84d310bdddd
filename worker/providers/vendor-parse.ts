import { z } from "zod";
import { yieldTurn } from "../lib/yield-turn";
import { ProviderError } from "./errors";
import { vendorText } from "./redact";

/**
 * Reading vendor answers, the same way for every adapter: a shape that does not fit is a
 * "malformed" ProviderError naming the vendor, the answer and the first field at fault, and
 * numbers and ids follow one rule set, whichever vendor sent them.
 */

/** A number written in a string as vendors do ("3215.0", "-1.5e3"): no hex, no "Infinity", no bare dot. */
const DECIMAL = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;
/** The longest piece of a refused value quoted in an error. */
const QUOTED_CHARS = 40;

const isBlank = (value: unknown) => typeof value === "string" && value.trim() === "";
const isAbsent = (value: unknown) => value === null || value === undefined || isBlank(value);

/** A value as an error message quotes it: short, and its type when it is no text or number. */
function quoted(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.slice(0, QUOTED_CHARS));
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  return Array.isArray(value) ? "a list" : `an ${typeof value}`;
}

/**
 * A finite number, exact if whole: a whole number past 2^53 was already rounded by JSON parsing,
 * so it is not what the vendor sent (a 19-digit id sent as a number, a corrupt counter).
 */
const isExact = (number: number) =>
  Number.isFinite(number) && (!Number.isInteger(number) || Number.isSafeInteger(number));

function toNumber(value: unknown, ctx: z.RefinementCtx): number {
  const trimmed = typeof value === "string" ? value.trim() : null;
  const number =
    typeof value === "number"
      ? value
      : trimmed !== null && DECIMAL.test(trimmed)
        ? Number(trimmed)
        : Number.NaN;
  if (isExact(number)) return number;
  ctx.addIssue({ code: "custom", message: `expected a number, got ${quoted(value)}` });
  return z.NEVER;
}

/** A number the vendor must send: a JSON number or a numeric string. */
export const vendorNumber = z.unknown().transform(toNumber);

function toId(value: unknown, ctx: z.RefinementCtx): string {
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  ctx.addIssue({
    code: "custom",
    message:
      typeof value === "number"
        ? `an id sent as a number lost precision or is not whole (${value})`
        : `expected an id, got ${quoted(value)}`,
  });
  return z.NEVER;
}

/** An id (or code) as the vendor sends it, kept as text: a non-blank string, or a whole number sent exactly. */
export const vendorId = z.unknown().transform(toId);

/**
 * A value the vendor may leave out: absent, null and "" (SolisCloud's empty value) are null; any
 * other value is read by `read`.
 */
const optional = <T>(read: (value: unknown, ctx: z.RefinementCtx) => T) =>
  z
    .unknown()
    .optional()
    .transform((value, ctx): T | null => (isAbsent(value) ? null : read(value, ctx)));

/** A number the vendor may leave out, otherwise read as `vendorNumber` reads it. */
export const optionalVendorNumber = optional(toNumber);

/** An id or code the vendor may leave out, otherwise read as `vendorId` reads it. */
export const optionalVendorId = optional(toId);

/** Text the vendor may leave out (null or absent): null. */
export const optionalVendorText = z
  .string()
  .nullish()
  .transform((value) => value ?? null);

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "";
  const where = issue.path.length > 0 ? ` at ${issue.path.map(String).join(".")}` : "";
  return `${where}: ${vendorText(issue.message)}`;
}

/**
 * `value` read with `schema`, or a "malformed" ProviderError such as "SMA answered the plant list
 * in an unexpected shape at plants.0.name: …". `what` names the answer ("the plant list").
 */
export function parseVendorAnswer<T extends z.ZodType>(
  schema: T,
  value: unknown,
  vendor: string,
  what: string,
): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ProviderError(
    "malformed",
    `${vendor} answered ${what} in an unexpected shape${describeIssue(result.error)}`,
  );
}

/** Records read between turns of the event loop (a record takes up to ~1 ms to check). */
const RECORDS_PER_TURN = 20;

/**
 * A list's records each read with `schema`, so an error names the one at fault ("… record 7"),
 * with a turn of the event loop every RECORDS_PER_TURN: a page of 100 records took the isolate
 * for up to ~140 ms, which every request to the app then waited out.
 */
export async function parseVendorRecords<T extends z.ZodType>(
  schema: T,
  records: unknown[],
  vendor: string,
  what: string,
): Promise<z.output<T>[]> {
  const parsed: z.output<T>[] = [];
  for (const [index, record] of records.entries()) {
    if (index > 0 && index % RECORDS_PER_TURN === 0) await yieldTurn();
    parsed.push(parseVendorAnswer(schema, record, vendor, `${what} record ${index + 1}`));
  }
  return parsed;
}
