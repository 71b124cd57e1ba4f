/**
 * What the server wrote into the page it served (src/spa/shell-hints.ts): whether the request
 * came with a session cookie of the identity provider and of the workspace; null when unknown.
 * False means there is no session to ask about, so the app does not ask (and no 401 shows).
 */
type ShellHints = { signed_in: boolean | null; workspace: boolean | null };

function read(): ShellHints {
  try {
    const hints = JSON.parse(document.querySelector<HTMLMetaElement>('meta[name="cairn-session"]')?.content ?? "null") as Partial<ShellHints> | null;
    return { signed_in: hints?.signed_in ?? null, workspace: hints?.workspace ?? null };
  } catch {
    return { signed_in: null, workspace: null };
  }
}

/** As the page was loaded: a sign-in or sign-out in the page since then is the session module's to know. */
export const shellHints: ShellHints = read();
