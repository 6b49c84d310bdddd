import { providerRegistration } from "../../../schema/provider-registry";
import type { ProviderDefinition } from "../types";

/**
 * Meteronline publishes no API description, so its data enters through CSV exports of its
 * portal (POST /api/providers/meteronline/import). The folder is where an API client goes once
 * the vendor documents one.
 */
export const meteronlineDefinition: ProviderDefinition = {
  id: "meteronline",
  displayName: providerRegistration("meteronline").displayName,
  description: "Import CSV exports from the Meteronline portal: systems, power and energy readings.",
  ingestion: "csv-import",
  fields: [
    {
      field: "portalAccount",
      name: "portalAccount",
      label: "Portal account",
      type: "text",
      placeholder: "name@company.com",
      required: false,
      description: "The Meteronline portal account the exports come from (for your reference).",
    },
  ],
};
