import { useEffect, useState } from "preact/hooks";
import { ApiError } from "../../api/http.ts";
import { type UserSettings, type WorkspaceMe, workspaceApi } from "../../api/workspace.ts";
import { shellHints } from "../../lib/shell-hints.ts";

export type WorkspaceSession = { me: WorkspaceMe; settings: UserSettings; setSettings: (s: UserSettings) => void };

/** Sends a visitor without a workspace session to sign in through the identity provider. */
function signInAgain(): void {
  location.assign(`/api/workspace/login?return_to=${encodeURIComponent(location.pathname + location.search)}`);
}

/** Who is signed in to the workspace (cookie `cairn_ws`) and their preferences; null while loading. */
export function useWorkspaceSession(): { session: WorkspaceSession | null; error: string | null } {
  const [me, setMe] = useState<WorkspaceMe | null>(null);
  const [settings, setSettings] = useState<UserSettings>({});
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    // No workspace cookie came with the page: asking would only answer 401.
    if (shellHints.workspace === false) return signInAgain();
    Promise.all([workspaceApi.me(), workspaceApi.userSettings()]).then(
      ([who, prefs]) => {
        setSettings(prefs);
        setMe(who);
      },
      (e: Error) => (e instanceof ApiError && e.status === 401 ? signInAgain() : setError(e.message)),
    );
  }, []);
  return { session: me ? { me, settings, setSettings } : null, error };
}

export const personalTeamId = (me: WorkspaceMe) => `personal:${me.user.id}`;

/** The workspaces a user can open: their personal one, then their teams. */
export function workspacesOf(me: WorkspaceMe): { id: string; name: string }[] {
  return [{ id: personalTeamId(me), name: "Personal" }, ...me.teams.map((t) => ({ id: t.id, name: t.name }))];
}

export const wsPath = (teamId: string, rest = "") => `/w/${encodeURIComponent(teamId)}${rest}`;

/** Which part of a team's workspace is open. */
export type WorkspaceView = "set" | "assigned" | "due-soon" | "team-settings";
