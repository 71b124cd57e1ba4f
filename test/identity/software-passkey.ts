import { sha256 } from "../../src/shared/crypto.ts";

/*
 * A software authenticator just good enough to make a passkey over the API (a "none"
 * attestation, an ES256 key), so a test without a browser can add one. The full ceremony in a
 * real browser is test/e2e's, through Chromium's virtual authenticator.
 */

type Cbor = number | string | Uint8Array | Map<Cbor, Cbor> | CborObject;
type CborObject = { [key: string]: Cbor };

const head = (major: number, n: number): number[] => (n < 24 ? [(major << 5) | n] : n < 256 ? [(major << 5) | 24, n] : [(major << 5) | 25, n >> 8, n & 0xff]);

/** The CBOR (RFC 8949) of the few shapes WebAuthn needs: small integers, strings, bytes and maps. */
function cbor(value: Cbor): number[] {
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") {
    const bytes = [...new TextEncoder().encode(value)];
    return [...head(3, bytes.length), ...bytes];
  }
  if (value instanceof Uint8Array) return [...head(2, value.length), ...value];
  const entries = value instanceof Map ? [...value] : Object.entries(value);
  return [...head(5, entries.length), ...entries.flatMap(([k, v]) => [...cbor(k), ...cbor(v)])];
}

const b64url = (bytes: Uint8Array | number[]) => new Uint8Array(bytes).toBase64({ alphabet: "base64url", omitPadding: true });

/** The browser's answer to `options` (from `POST /api/oauth/me/passkeys/options`), made at `origin`. */
export async function makePasskey(options: { challenge: string; rp: { id?: string } }, origin: string) {
  const keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign"])) as CryptoKeyPair;
  const raw = new Uint8Array(await crypto.subtle.exportKey("raw", keys.publicKey));
  const cose = new Map<Cbor, Cbor>([
    [1, 2],
    [3, -7],
    [-1, 1],
    [-2, raw.slice(1, 33)],
    [-3, raw.slice(33, 65)],
  ]);
  const credentialId = crypto.getRandomValues(new Uint8Array(16));
  const rpId = options.rp.id ?? new URL(origin).hostname;
  // rpIdHash, flags (user present and verified, credential data attached), sign count 0, a zero AAGUID.
  const authData = new Uint8Array([...sha256(rpId), 0x45, 0, 0, 0, 0, ...new Uint8Array(16), 0, credentialId.length, ...credentialId, ...cbor(cose)]);
  const clientData = JSON.stringify({ type: "webauthn.create", challenge: options.challenge, origin, crossOrigin: false });
  return {
    id: b64url(credentialId),
    rawId: b64url(credentialId),
    type: "public-key",
    clientExtensionResults: {},
    response: {
      clientDataJSON: b64url(new TextEncoder().encode(clientData)),
      attestationObject: b64url(cbor({ fmt: "none", attStmt: {}, authData })),
      transports: ["internal"],
    },
  };
}
