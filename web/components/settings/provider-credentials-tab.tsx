import { ProviderConnections } from "../providers/provider-connections";

export function ProviderCredentialsTab() {
  return <ProviderConnections />;
}
