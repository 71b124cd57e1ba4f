import {
  browserSupportsWebAuthn,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
} from "@simplewebauthn/browser";

export { browserSupportsWebAuthn };

/** A sentence for a failed passkey ceremony: the browser's errors are terse. */
export function passkeyErrorMessage(e: unknown): string {
  const name = (e as { name?: string })?.name;
  if (name === "NotAllowedError" || name === "AbortError") return "The passkey request was cancelled or timed out.";
  if (name === "InvalidStateError") return "This authenticator already holds a passkey for your account.";
  if (name === "SecurityError") return "Passkeys need this site to be opened by its domain name over https (or on localhost).";
  return (e as Error)?.message || "The passkey did not work.";
}

/** Asks the browser for an assertion (sign-in or second factor). */
export function getPasskey(options: PublicKeyCredentialRequestOptionsJSON) {
  return startAuthentication({ optionsJSON: options });
}

/** Asks the browser to create a passkey for the signed-in user. */
export function createPasskey(options: PublicKeyCredentialCreationOptionsJSON) {
  return startRegistration({ optionsJSON: options });
}
