import type { App } from "../../api/apps.ts";

/** Verified or not, and public or confidential, as small badges. */
export function AppBadges({ app }: { app: Pick<App, "is_verified" | "public"> }) {
  return (
    <>
      {app.is_verified ? <span class="badge badge-success">Verified</span> : <span class="badge">Unverified</span>}{" "}
      <span class="badge">{app.public ? "Public" : "Confidential"}</span>
    </>
  );
}
