import { LocationProvider, Route, Router } from "preact-iso";
import { Layout } from "./components/layout.tsx";
import { AccountPage } from "./pages/account/account-page.tsx";
import { AdminPage } from "./pages/admin/admin-page.tsx";
import { AppPage } from "./pages/apps/app-page.tsx";
import { AppsPage } from "./pages/apps/apps-page.tsx";
import { LoginPage } from "./pages/auth/login-page.tsx";
import { RegisterPage } from "./pages/auth/register-page.tsx";
import { ResetPasswordPage } from "./pages/auth/reset-password-page.tsx";
import { ForgotPasswordPage } from "./pages/auth/forgot-password-page.tsx";
import { VerifyEmailPage } from "./pages/auth/verify-email-page.tsx";
import { ConsentPage } from "./pages/consent/consent-page.tsx";
import { DevicePage } from "./pages/device/device-page.tsx";
import { LogoutPage } from "./pages/logout/logout-page.tsx";
import { HomePage } from "./pages/home/home-page.tsx";
import { NotFoundPage } from "./pages/not-found.tsx";
import { SettingsPage } from "./pages/settings/settings-page.tsx";
import { SetupPage } from "./pages/setup/setup-page.tsx";
import { SharedSetPage } from "./pages/shared/shared-set-page.tsx";
import { TeamPage } from "./pages/teams/team-page.tsx";
import { TeamsPage } from "./pages/teams/teams-page.tsx";
import { TwoFactorPage } from "./pages/two-factor/two-factor-page.tsx";
import { WorkspacePage } from "./pages/workspace/workspace-page.tsx";

// Links to the server's own pages (API starts such as "Sign in with…", the docs site) are full
// navigations: the router keeps to the SPA's paths.
const SPA_PATHS = /^\/(?!api\/|docs(\/|$)|\.well-known\/)/;

export function App() {
  return (
    <LocationProvider scope={SPA_PATHS}>
      <Layout>
        <Router>
          <Route path="/" component={HomePage} />
          <Route path="/setup" component={SetupPage} />
          <Route path="/settings" component={SettingsPage} />
          <Route path="/login" component={LoginPage} />
          <Route path="/register" component={RegisterPage} />
          <Route path="/reset-password" component={ResetPasswordPage} />
          <Route path="/forgot-password" component={ForgotPasswordPage} />
          <Route path="/verify-email" component={VerifyEmailPage} />
          <Route path="/account" component={AccountPage} />
          <Route path="/teams" component={TeamsPage} />
          <Route path="/teams/:id" component={TeamPage} />
          <Route path="/admin" component={AdminPage} />
          <Route path="/apps" component={AppsPage} />
          <Route path="/apps/:clientId" component={AppPage} />
          <Route path="/consent" component={ConsentPage} />
          <Route path="/device" component={DevicePage} />
          <Route path="/2fa" component={TwoFactorPage} />
          <Route path="/logout" component={LogoutPage} />
          <Route path="/w" component={WorkspacePage} />
          <Route path="/w/settings" component={WorkspacePage} />
          <Route path="/w/:teamId" component={WorkspacePage} />
          <Route path="/w/:teamId/settings" component={WorkspacePage} />
          <Route path="/w/:teamId/assigned" component={WorkspacePage} />
          <Route path="/w/:teamId/due-soon" component={WorkspacePage} />
          <Route path="/w/:teamId/sets/:setId" component={WorkspacePage} />
          <Route path="/s/:token" component={SharedSetPage} />
          <Route default component={NotFoundPage} />
        </Router>
      </Layout>
    </LocationProvider>
  );
}
