import { bodyLimit } from "hono/body-limit";
import { ApiError } from "../lib/errors";

/** JSON bodies of this API are small; anything larger is refused before it is parsed. */
export const MAX_JSON_BODY_BYTES = 64 * 1024;

export const jsonBodyLimit = bodyLimit({
  maxSize: MAX_JSON_BODY_BYTES,
  onError: () => {
    throw new ApiError(413, "Request body is too large", { maxBytes: MAX_JSON_BODY_BYTES });
  },
});
