import { LocationProvider, Route, Router } from "preact-iso";
import { Layout } from "./components/layout.tsx";
import { HomePage } from "./pages/home/home-page.tsx";
import { NotFoundPage } from "./pages/not-found.tsx";
import { SetupPage } from "./pages/setup/setup-page.tsx";

export function App() {
  return (
    <LocationProvider>
      <Layout>
        <Router>
          <Route path="/" component={HomePage} />
          <Route path="/setup" component={SetupPage} />
          <Route default component={NotFoundPage} />
        </Router>
      </Layout>
    </LocationProvider>
  );
}
