/** How a client presented itself at a token-family endpoint (RFC 6749 section 2.3, RFC 7523). */
export type PresentedCredentials =
  | { method: "client_secret_basic"; clientId: string; secret: string }
  | { method: "client_secret_post"; clientId: string; secret: string }
  | { method: "private_key_jwt"; clientId: string | null; assertion: string }
  | { method: "none"; clientId: string }
  | { method: "missing" };

export const MALFORMED_BASIC = "malformed Basic credentials";
const ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

const BASIC_SCHEME = /^basic /i;
const BASIC = /^Basic\s+([A-Za-z0-9+/=]+)$/i;

/** One form-urlencoded part of Basic credentials; most carry nothing encoded, and are spared decoding. */
const formDecoded = (s: string) => (s.includes("%") || s.includes("+") ? decodeURIComponent(s.replace(/\+/g, " ")) : s);

/** Decodes RFC 6749 section 2.3.1 Basic credentials (each part form-urlencoded), or null. */
function basic(header: string): { clientId: string; secret: string } | null {
  const match = BASIC.exec(header);
  if (!match) return null;
  const decoded = Buffer.from(match[1] as string, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return null;
  try {
    return { clientId: formDecoded(decoded.slice(0, colon)), secret: formDecoded(decoded.slice(colon + 1)) };
  } catch {
    return null;
  }
}

/**
 * The one set of credentials a request carries; a string when it carries none, several, or
 * malformed ones (RFC 6749 section 2.3: a client uses one method per request).
 */
export function presentedCredentials(authorization: string | null, form: URLSearchParams): PresentedCredentials | string {
  const triedBasic = authorization !== null && BASIC_SCHEME.test(authorization);
  const fromBasic = triedBasic ? basic(authorization) : null;
  if (triedBasic && !fromBasic) return MALFORMED_BASIC;
  const bodyId = form.get("client_id");
  const bodySecret = form.get("client_secret");
  const assertionType = form.get("client_assertion_type");
  const assertion = form.get("client_assertion");
  const byAssertion = assertion !== null || assertionType !== null;
  if (Number(fromBasic !== null) + Number(bodySecret !== null) + Number(byAssertion) > 1) return "use one client authentication method per request";
  if (fromBasic) {
    if (bodyId !== null && bodyId !== fromBasic.clientId) return "client_id differs from the Basic credentials";
    return { method: "client_secret_basic", ...fromBasic };
  }
  if (byAssertion) {
    if (assertionType !== ASSERTION_TYPE) return `client_assertion_type must be ${ASSERTION_TYPE}`;
    if (!assertion) return 'missing required parameter "client_assertion"';
    return { method: "private_key_jwt", clientId: bodyId, assertion };
  }
  if (!bodyId) return { method: "missing" };
  if (bodySecret !== null) return { method: "client_secret_post", clientId: bodyId, secret: bodySecret };
  return { method: "none", clientId: bodyId };
}
