import { ApiRequestError, errorDescription } from "../../lib/api";

/**
 * A toast's description for a failed site call: the server's details (its `message` when details
 * is an object, as for "Address not found"), else its error with the first validation issue,
 * else the caller's fallback text.
 */
export function failureDetails(error: unknown, fallback: string): string {
  if (error instanceof ApiRequestError) {
    const details = error.details;
    if (typeof details === "string" && details.trim()) return details;
    if (
      details &&
      typeof details === "object" &&
      "message" in details &&
      typeof details.message === "string" &&
      details.message.trim()
    ) {
      return details.message;
    }
  }
  return errorDescription(error, fallback);
}
