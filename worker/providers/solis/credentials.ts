import { z } from "zod";
import type { CredentialField } from "../../../schema/api/providers";
import { defaultProviderUrls } from "../urls";

export interface SolisCredentials {
  keyId: string;
  keySecret: string;
  /** The account's API URL from SolisCloud's API management page; absent means the configured default. */
  apiUrl?: string;
}

export const solisFields: CredentialField[] = [
  {
    field: "keyId",
    name: "keyId",
    label: "API Key ID",
    type: "text",
    placeholder: "19-digit KeyId",
    required: true,
    description: "The KeyId shown on SolisCloud's API management page once API access is activated.",
  },
  {
    field: "keySecret",
    name: "keySecret",
    label: "API Key Secret",
    type: "password",
    placeholder: "KeySecret",
    required: true,
    description: "The KeySecret shown next to the KeyId. It signs every request and is never sent itself.",
  },
  {
    field: "apiUrl",
    name: "apiUrl",
    label: "API URL",
    type: "url",
    placeholder: defaultProviderUrls.solis,
    required: false,
    description: `The API URL shown on the same page. Leave empty for ${defaultProviderUrls.solis}.`,
  },
];

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.search === "" && url.hash === "";
  } catch {
    return false;
  }
}

const required = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(256, `${label} is too long`)
    .refine((value) => !/\s/.test(value), `${label} must not contain spaces`);

export const solisCredentialsSchema: z.ZodType<SolisCredentials> = z
  .strictObject({
    keyId: required("API Key ID"),
    keySecret: required("API Key Secret"),
    apiUrl: z
      .string()
      .trim()
      .optional()
      .refine(
        (value) => !value || isHttpUrl(value),
        `API URL must be a web address such as ${defaultProviderUrls.solis}`,
      ),
  })
  .transform(({ keyId, keySecret, apiUrl }) =>
    apiUrl ? { keyId, keySecret, apiUrl: apiUrl.replace(/\/+$/, "") } : { keyId, keySecret },
  );
