import type { ConfirmAnswer } from "../../api/two-factor.ts";
import { Card } from "../../components/card.tsx";

/** Where the page sends the browser: back to the app, at once on success, after reading on a refusal. */
export function Leaving({ answer, app }: { answer: ConfirmAnswer; app: string }) {
  if (!answer.error) {
    location.assign(answer.redirect_to);
    return <p class="muted">Confirmed. Returning to {app}…</p>;
  }
  return (
    <div class="narrow">
      <Card title="Not confirmed">
        <p role="alert">{answer.error_description}</p>
        <div class="form-actions start">
          <a class="btn btn-primary" href={answer.redirect_to}>
            Back to {app}
          </a>
        </div>
      </Card>
    </div>
  );
}
