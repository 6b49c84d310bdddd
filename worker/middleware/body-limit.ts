import { bodyLimit } from "hono/body-limit";
import { METERONLINE_MAX_CSV_BYTES } from "../../schema/api/meteronline";
import { ApiError } from "../lib/errors";

/** JSON bodies of this API are small; anything larger is refused before it is parsed. */
export const MAX_JSON_BODY_BYTES = 64 * 1024;
/** CSV imports carry a whole export file. */
export const MAX_IMPORT_BODY_BYTES = METERONLINE_MAX_CSV_BYTES + 64 * 1024;

const limit = (maxSize: number) =>
  bodyLimit({
    maxSize,
    onError: () => {
      throw new ApiError({
        code: "payload_too_large",
        message: "Request body is too large",
        details: { maxBytes: maxSize },
      });
    },
  });

export const jsonBodyLimit = limit(MAX_JSON_BODY_BYTES);
export const importBodyLimit = limit(MAX_IMPORT_BODY_BYTES);

/** Import routes get the larger limit; every other route the JSON one. */
export const IMPORT_PATHS = new Set(["/api/providers/meteronline/import"]);
