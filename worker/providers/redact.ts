/**
 * Vendor error texts end up in stored sync runs, connection errors and API answers. Before they
 * do, they are shortened and stripped of anything that looks like a credential: a vendor may
 * echo the token or key it was sent, and a proxy may echo headers.
 */

/** The longest vendor text kept in an error message. */
export const VENDOR_TEXT_MAX_CHARS = 300;
const REDACTED = "[redacted]";

const PATTERNS: [RegExp, string][] = [
  // "Authorization: Bearer abc", "bearer abc", "Basic abc=="
  [/\b(bearer)\s+[^\s"',;]{8,}/gi, `$1 ${REDACTED}`],
  [/\b(Basic)\s+[A-Za-z0-9+/]{8,}={0,2}/g, `$1 ${REDACTED}`],
  // SolisCloud's "API <keyId>:<signature>"
  [/\bAPI\s+[^\s:"']+:[^\s"',;]+/g, `API ${REDACTED}`],
  // token=…, "client_secret": "…", tokenId=…, keySecret=… (unquoted "key: …" is left to the rule below)
  [
    /\b([\w-]*(?:token|secret|password|passwd|api[_-]?key|access[_-]?key|key[_-]?id|keyvalue|signature)[\w-]*)(\s*=\s*["']?|["']\s*:\s*["']?)[^\s"',;&}]+/gi,
    `$1$2${REDACTED}`,
  ],
  // Long runs of hex, base64 or base64url carrying both letters and digits (keys, tokens, JWTs);
  // "/" is left out so that paths stay readable.
  [/[A-Za-z0-9+_-]{20,}={0,2}(?:\.[A-Za-z0-9+_-]{10,}={0,2})*/g, "\u0000"],
];

const looksLikeSecret = (run: string) => /[A-Za-z]/.test(run) && /\d/.test(run);

/** `text` without credential-like parts and without the given credential values. */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  // Longest first, so a value containing another is removed whole.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length >= 8) out = out.split(secret).join(REDACTED);
  }
  for (const [pattern, replacement] of PATTERNS) {
    if (replacement === "\u0000") {
      out = out.replace(pattern, (run) => (looksLikeSecret(run) ? REDACTED : run));
    } else {
      out = out.replace(pattern, replacement);
    }
  }
  return out;
}

/** A vendor's own text (an envelope message, an exception), fit to quote in an error. */
export function vendorText(text: string | null | undefined, secrets: readonly string[] = []): string {
  const clean = redactSecrets(String(text ?? ""), secrets)
    .replace(/\s+/g, " ")
    .trim();
  return clean.length > VENDOR_TEXT_MAX_CHARS ? `${clean.slice(0, VENDOR_TEXT_MAX_CHARS - 1)}…` : clean;
}

/**
 * The string values of a credential that must never appear in a message: every field except
 * web addresses (an API URL is configuration, and naming it helps the user).
 */
export function credentialValues(credentials: unknown): string[] {
  if (typeof credentials !== "object" || credentials === null) return [];
  return Object.values(credentials).flatMap((value) => {
    if (typeof value === "string") return /^https?:\/\//i.test(value) ? [] : [value];
    // Lists (SolaX dongle numbers) identify devices and are named in messages on purpose.
    return [];
  });
}
