/**
 * The headers every answer carries. The worker adds them to its own answers; static assets
 * (the SPA, served without the worker) get the same from `public/_headers`, and a test keeps the
 * two equal.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  // No inline or evaluated scripts: the built index.html loads only /assets/*.js.
  "script-src 'self'",
  // Toast and chart libraries set styles at run time.
  "style-src 'self' 'unsafe-inline'",
  // The favicon is a data: URI.
  "img-src 'self' data:",
  "font-src 'self'",
  // API calls and the /ws socket go to the app's own origin.
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

export const SECURITY_HEADERS: Record<string, string> = {
  "Content-Security-Policy": CONTENT_SECURITY_POLICY,
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
  "Cross-Origin-Opener-Policy": "same-origin",
};

/**
 * A browser that learns it over https keeps to https for the host. The worker sends it on https
 * answers; `public/_headers` on every static answer, which a browser ignores over plain http.
 */
export const STRICT_TRANSPORT_SECURITY = "max-age=31536000; includeSubDomains";

/**
 * API answers carry tokens, keys, members and exports: no browser or proxy keeps them unless a
 * route says otherwise (the dashboard metrics' tag revalidation, the time zone list).
 */
export const API_CACHE_CONTROL = "no-store";
