import { z } from "zod";
import type { CredentialField } from "../../../schema/api/providers";

export interface SmaCredentials {
  clientId: string;
  clientSecret: string;
  /** The SMA account e-mail of the plants' owner: SMA asks this person to approve our access. */
  ownerEmail: string;
}

export const smaFields: CredentialField[] = [
  {
    field: "clientId",
    name: "clientId",
    label: "Client ID",
    type: "text",
    placeholder: "my-company-monitoring",
    required: true,
    description: "The OAuth2 client ID SMA API Developer Support issued for the Monitoring API.",
  },
  {
    field: "clientSecret",
    name: "clientSecret",
    label: "Client secret",
    type: "password",
    placeholder: "Client secret",
    required: true,
    description: "The client secret issued with the client ID.",
  },
  {
    field: "ownerEmail",
    name: "ownerEmail",
    label: "Plant owner's SMA e-mail",
    type: "email",
    placeholder: "owner@example.com",
    required: true,
    description:
      "The e-mail of the Sunny Portal / ennexOS account that owns the plants. SMA e-mails this person once to approve access; syncing starts after they accept.",
  },
];

const required = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(256, `${label} is too long`);

export const smaCredentialsSchema: z.ZodType<SmaCredentials> = z.strictObject({
  clientId: required("Client ID").refine((value) => !/\s/.test(value), "Client ID must not contain spaces"),
  clientSecret: required("Client secret"),
  ownerEmail: required("Plant owner's SMA e-mail").pipe(
    z.email("Plant owner's SMA e-mail must be an e-mail address such as owner@example.com"),
  ),
});
