import { z } from "zod";
import type { CredentialField } from "../../../schema/api/providers";
import { isComputableZone } from "../../domain/timezones";

export interface SolaxTokenCredentials {
  apiType: "token";
  tokenId: string;
  /** Registration numbers of the WiFi/LAN dongles: one system with one inverter each. */
  wifiSns: string[];
  /** Where the inverters are: v1 sends local times without an offset. */
  timezone: string | null;
}

export interface SolaxOpenApiCredentials {
  apiType: "openapi";
  clientId: string;
  clientSecret: string;
}

export type SolaxCredentials = SolaxTokenCredentials | SolaxOpenApiCredentials;

/**
 * 10 calls a minute and 10,000 a day per token: 30 dongles polled every 5 minutes is 8,640 calls
 * a day and 3 minutes per sync, about as much as one token carries.
 */
export const MAX_DONGLES = 30;

export const solaxFields: CredentialField[] = [
  {
    field: "apiType",
    name: "apiType",
    label: "API",
    type: "select",
    placeholder: "",
    defaultValue: "token",
    required: true,
    description:
      "SolaX Cloud token API (Service → API in SolaX Cloud, one dongle per inverter) or the Developer OpenAPI (developer.solaxcloud.com, lists every plant).",
    options: [
      { value: "token", label: "SolaX Cloud token API" },
      { value: "openapi", label: "Developer OpenAPI" },
    ],
  },
  {
    field: "tokenId",
    name: "tokenId",
    label: "Token ID",
    type: "password",
    placeholder: "20240701…",
    required: false,
    description: "Token API only: the tokenId shown under Service → API in SolaX Cloud.",
  },
  {
    field: "wifiSns",
    name: "wifiSns",
    label: "Dongle registration numbers",
    type: "textarea",
    placeholder: "SVJWACXAK2, SVXXXXXXXX",
    required: false,
    description: `Token API only: the registration number of each WiFi/LAN dongle (not the inverter serial), separated by commas, spaces or new lines; at most ${MAX_DONGLES}.`,
  },
  {
    field: "timezone",
    name: "timezone",
    label: "Time zone of the inverters",
    type: "text",
    placeholder: "Europe/Amsterdam",
    required: false,
    description:
      "Token API only, optional: an IANA zone, used when SolaX sends a local time without an offset.",
  },
  {
    field: "clientId",
    name: "clientId",
    label: "Client ID",
    type: "text",
    placeholder: "",
    required: false,
    description: "Developer OpenAPI only: the application's client ID.",
  },
  {
    field: "clientSecret",
    name: "clientSecret",
    label: "Client secret",
    type: "password",
    placeholder: "",
    required: false,
    description: "Developer OpenAPI only: the application's client secret.",
  },
];

const text = z.preprocess(
  // Stored credentials are this schema's own output (wifiSns a list, timezone null), read again at
  // every sync: the schema accepts them as well as the form's strings.
  (value) => (Array.isArray(value) ? value.join(",") : (value ?? undefined)),
  z
    .string()
    .trim()
    .optional()
    .transform((value) => value ?? ""),
);

const formSchema = z.strictObject({
  apiType: text,
  tokenId: text,
  wifiSns: text,
  timezone: text,
  clientId: text,
  clientSecret: text,
});

export const solaxCredentialsSchema: z.ZodType<SolaxCredentials> = formSchema.transform(
  (form, ctx): SolaxCredentials => {
    const fail = (path: string, message: string) => {
      ctx.addIssue({ code: "custom", path: [path], message });
      return z.NEVER;
    };
    const apiType = form.apiType || "token";
    if (apiType === "openapi") {
      if (!form.clientId) return fail("clientId", "Client ID is required");
      if (!form.clientSecret) return fail("clientSecret", "Client secret is required");
      return { apiType: "openapi", clientId: form.clientId, clientSecret: form.clientSecret };
    }
    if (apiType !== "token") return fail("apiType", 'API must be "token" or "openapi"');
    if (!form.tokenId) return fail("tokenId", "Token ID is required");
    const wifiSns = [...new Set(form.wifiSns.split(/[\s,;]+/).filter(Boolean))];
    if (wifiSns.length === 0) return fail("wifiSns", "Dongle registration numbers is required");
    const invalid = wifiSns.find((sn) => !/^[A-Za-z0-9]{6,32}$/.test(sn));
    if (invalid)
      return fail("wifiSns", `"${invalid}" is not a dongle registration number (letters and digits)`);
    if (wifiSns.length > MAX_DONGLES) {
      return fail("wifiSns", `At most ${MAX_DONGLES} dongles per token (SolaX allows 10 calls a minute)`);
    }
    if (form.timezone && !isComputableZone(form.timezone)) {
      return fail("timezone", `"${form.timezone}" is not an IANA time zone such as Europe/Amsterdam`);
    }
    return { apiType: "token", tokenId: form.tokenId, wifiSns, timezone: form.timezone || null };
  },
);
