import type { Env } from "../env";
import { notConfigured } from "./errors";

/** The JWT key, refusing to run with a short or missing one rather than sign weak tokens. */
export function jwtSecret(env: Env): string {
  const secret = env.JWT_SECRET;
  if (typeof secret !== "string" || secret.length < 32) {
    throw notConfigured("Server is not configured: JWT_SECRET must be at least 32 characters");
  }
  return secret;
}
