import { useEffect, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { initApi } from "../../api/init.ts";
import { Card } from "../../components/card.tsx";
import { toast } from "../../components/toast.tsx";

/** The landing page: a fresh instance sends its first visitor to the setup wizard. */
export function HomePage() {
  const { route } = useLocation();
  const [configured, setConfigured] = useState<boolean | null>(null);
  useEffect(() => {
    initApi.status().then(
      (done) => (done ? setConfigured(true) : route("/setup", true)),
      (e: Error) => toast(e.message, "error"),
    );
  }, []);
  if (configured === null) return <p class="muted">Loading…</p>;
  return (
    <Card title="Cairn is running">
      <p>This instance is set up. Single sign-on and the shared workspace live here.</p>
    </Card>
  );
}
