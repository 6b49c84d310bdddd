import { toast } from "../../lib/toast";

/**
 * A failure's toast on a page shown before sign-in, in the reader's language from the API's error
 * code. The codes' messages (and zod, which checks their details) load with the first failure, so
 * these pages' first download stays small.
 */
export function toastFailure(title: string, error: unknown, fallback: string): void {
  void import("../../lib/error-messages").then(({ errorDescription }) =>
    toast.error(title, { description: errorDescription(error, fallback) }),
  );
}
