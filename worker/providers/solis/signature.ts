import { md5 } from "@noble/hashes/legacy.js";

/**
 * SolisCloud's request signature (API doc V2 §2.2): Content-MD5 over the exact body bytes,
 * then HMAC-SHA1 over verb, Content-MD5, Content-Type, Date and the path.
 * MD5 comes from @noble/hashes because WebCrypto has no MD5 outside workerd.
 */

export const SOLIS_CONTENT_TYPE = "application/json";

export interface SolisSignatureInput {
  keyId: string;
  keySecret: string;
  /** The exact body bytes that are sent. */
  body: string;
  /** An HTTP date in GMT, e.g. "Fri, 26 Jul 2019 06:00:46 GMT". */
  date: string;
  /** The path the vendor sees, e.g. "/v1/api/userStationList" (no host, no query). */
  path: string;
  contentType?: string;
}

const encoder = new TextEncoder();

function toBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

/** base64 of the 16-byte MD5 digest (not of its hex form), as the vendor requires. */
export function solisContentMd5(body: string): string {
  return toBase64(md5(encoder.encode(body)));
}

/** The Authorization header value: "API " + keyId + ":" + base64(HMAC-SHA1(secret, string to sign)). */
export async function solisAuthorization(input: SolisSignatureInput): Promise<string> {
  const contentType = input.contentType ?? SOLIS_CONTENT_TYPE;
  const stringToSign = ["POST", solisContentMd5(input.body), contentType, input.date, input.path].join("\n");
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(input.keySecret),
    { name: "HMAC", hash: "SHA-1" },
    false,
    ["sign"],
  );
  const signature = await crypto.subtle.sign("HMAC", key, encoder.encode(stringToSign));
  return `API ${input.keyId}:${toBase64(new Uint8Array(signature))}`;
}

/** Every header a signed SolisCloud call carries. */
export async function solisSignedHeaders(input: SolisSignatureInput): Promise<Record<string, string>> {
  const contentType = input.contentType ?? SOLIS_CONTENT_TYPE;
  return {
    "Content-MD5": solisContentMd5(input.body),
    "Content-Type": contentType,
    Date: input.date,
    Authorization: await solisAuthorization({ ...input, contentType }),
  };
}
