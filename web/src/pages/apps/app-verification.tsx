import { type App, appsApi } from "../../api/apps.ts";
import { Button } from "../../components/button.tsx";
import { Card } from "../../components/card.tsx";
import { useAction } from "../../lib/use-action.ts";

/** Admins only: the mark that tells people on the consent page that this site checked the app. */
export function AppVerification({ app, onChange }: { app: App; onChange: () => Promise<void> }) {
  const { busy, run } = useAction();
  const flip = () =>
    run(
      "verify",
      async () => {
        await appsApi.setVerified(app.client_id, !app.is_verified);
        await onChange();
      },
      app.is_verified ? "The verified mark is removed." : `${app.name} is marked verified.`,
    );
  return (
    <Card id="verification" title="Verification">
      <p class="muted">
        {app.is_verified
          ? "People see this app as verified when they are asked to allow it."
          : "People are told this app is unverified when they are asked to allow it. As an admin, mark it verified once you know who runs it (apps an admin registers start verified)."}
      </p>
      <Button variant="secondary" busy={busy === "verify"} onClick={() => void flip()}>
        {app.is_verified ? "Remove verified mark" : "Mark as verified"}
      </Button>
    </Card>
  );
}
