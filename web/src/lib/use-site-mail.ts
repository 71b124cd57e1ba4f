import { useEffect, useState } from "preact/hooks";
import { authApi } from "../api/auth.ts";

/** Whether this site sends email (SMTP set up by an administrator); null while unknown or unreadable. */
export function useSiteMail(): boolean | null {
  const [mail, setMail] = useState<boolean | null>(null);
  useEffect(() => {
    authApi.registration().then(
      (info) => setMail(info.mail),
      () => setMail(null),
    );
  }, []);
  return mail;
}
