import { useEffect, useState } from "preact/hooks";
import { authApi, type RegistrationInfo } from "../api/auth.ts";

/** The site setting `registration` for a signed-out visitor (null while unknown or unreadable). */
export function useRegistration(ask: boolean): RegistrationInfo["registration"] | null {
  const [registration, setRegistration] = useState<RegistrationInfo["registration"] | null>(null);
  useEffect(() => {
    if (ask && registration === null)
      authApi.registration().then(
        (info) => setRegistration(info.registration),
        () => setRegistration(null),
      );
  }, [ask]);
  return registration;
}

/** What signed-out pages say about new accounts when they are by invitation only. */
export const BY_INVITATION = "New accounts here are by invitation: ask an administrator for an invitation link.";
