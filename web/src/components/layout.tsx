import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { type Branding, initApi } from "../api/init.ts";
import mark from "../assets/cairn.svg";
import { loadSession } from "../lib/session.ts";
import { Toaster } from "./toast.tsx";
import { UserMenu } from "./user-menu.tsx";

export function Layout({ children }: { children: ComponentChildren }) {
  // The workspace uses the full width for its sidebar and list.
  const wide = useLocation().path.startsWith("/w");
  const [branding, setBranding] = useState<Branding>({ site_name: "Cairn", site_logo_url: "" });
  useEffect(() => {
    initApi.branding().then(setBranding, () => {});
    void loadSession();
  }, []);
  useEffect(() => {
    document.title = branding.site_name;
  }, [branding.site_name]);
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <a class="brand" href="/">
          {branding.site_logo_url ? <img src={branding.site_logo_url} alt="" class="brand-logo" /> : <img src={mark} alt="" class="brand-logo" />}
          <span>{branding.site_name}</span>
        </a>
        <UserMenu />
      </header>
      <main id="main" class={wide ? "main main-wide" : "main"}>
        {children}
      </main>
      <Toaster />
    </>
  );
}
