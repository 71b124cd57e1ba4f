import { EmptyState } from "../components/empty-state.tsx";

export function NotFoundPage() {
  return (
    <EmptyState
      title="Page not found"
      action={
        <a class="btn btn-secondary" href="/">
          Go home
        </a>
      }
    >
      There is nothing at this address.
    </EmptyState>
  );
}
