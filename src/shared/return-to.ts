const MAX_RETURN_TO = 1024;

/**
 * Only a path on this site may be a return address (no open redirect). The value is read as a
 * browser reads a Location (which drops tabs and newlines, so "/\t/evil.example" means
 * "//evil.example") and answered in its serialized, percent-encoded form, safe in a header.
 */
export function safeReturnTo(raw: string | undefined, issuer: string, fallback = "/w"): string {
  if (!raw || raw.length > MAX_RETURN_TO || !raw.startsWith("/") || /[\\\x00-\x1f\x7f]/.test(raw)) return fallback;
  let url: URL;
  try {
    url = new URL(raw, issuer);
  } catch {
    return fallback;
  }
  const path = `${url.pathname}${url.search}${url.hash}`;
  return url.origin === new URL(issuer).origin && !path.startsWith("//") ? path : fallback;
}
