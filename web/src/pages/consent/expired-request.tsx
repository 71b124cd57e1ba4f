import { EmptyState } from "../../components/empty-state.tsx";

/** An interaction that is unknown, expired or already answered. */
export function ExpiredRequest() {
  return (
    <EmptyState
      title="This sign-in request has expired"
      action={
        <a class="btn btn-secondary" href="/">
          Go to the home page
        </a>
      }
    >
      A request to allow an app lasts a few minutes and can be answered once. Go back to the app and sign in again.
    </EmptyState>
  );
}
