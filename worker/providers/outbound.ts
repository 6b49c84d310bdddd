/**
 * Where a user-given vendor URL may point: the vendor's own production hosts over https, or the
 * base URL the environment configures for that provider (the sandbox in development and tests).
 * Anything else (another host, plain http, credentials or a query in the URL) is never called.
 */
export interface VendorHosts {
  /** Exact host names, or "*.example.com" for the vendor's subdomains. */
  hosts: readonly string[];
  /** Ports besides 443 the vendor documents (SolisCloud's 13333). */
  ports?: readonly string[];
}

function hostMatches(hostname: string, pattern: string): boolean {
  const host = hostname.toLowerCase();
  if (pattern.startsWith("*.")) return host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1;
  return host === pattern;
}

function parse(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/** Null when `value` may be called, otherwise why not (a sentence for the user). */
export function vendorUrlProblem(
  value: string,
  vendor: VendorHosts & { name: string },
  configuredBaseUrl: string,
): string | null {
  const url = parse(value);
  if (!url) return `${vendor.name} API URL is not a web address`;
  const configured = parse(configuredBaseUrl);
  if (url.username || url.password || url.search || url.hash) {
    return `${vendor.name} API URL must not carry a user name, password, query or fragment`;
  }
  // The environment's own base URL (the sandbox in development) is trusted as configured.
  if (configured && url.origin === configured.origin) return null;
  const portAllowed = url.port === "" || url.port === "443" || (vendor.ports ?? []).includes(url.port);
  if (
    url.protocol === "https:" &&
    portAllowed &&
    vendor.hosts.some((pattern) => hostMatches(url.hostname, pattern))
  ) {
    return null;
  }
  return `${vendor.name} API URL must be one of ${vendor.name}'s own https addresses (${vendor.hosts.join(", ")}); ${url.host} is not`;
}
