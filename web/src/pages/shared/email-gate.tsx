import { useState } from "preact/hooks";
import { Button } from "../../components/button.tsx";
import { TextField } from "../../components/field.tsx";
import { Form } from "../../components/form.tsx";
import { useSubmit } from "../../lib/use-submit.ts";

type Props = { initial: string; refused: string | null; onSubmit: (email: string) => Promise<unknown> };

/** Spec 2 section 4.4 `requiresEmail`: a restricted link asks who is visiting before it shows anything. */
export function EmailGate({ initial, refused, onSubmit }: Props) {
  const [email, setEmail] = useState(initial);
  const { busy, error, submit } = useSubmit();
  return (
    <div class="card narrow share-gate">
      <div class="card-body">
        <Form
          onSubmit={() =>
            void submit(async () => {
              if (!email.trim()) throw new Error("Enter your email address.");
              await onSubmit(email.trim());
            })
          }
        >
          <h1>This list is shared with some people only</h1>
          <p class="muted">Enter the email address it was shared with. It is only compared with the owner’s list; nothing is sent to it.</p>
          <TextField label="Your email" type="email" autocomplete="email" value={email} onValue={setEmail} error={error ?? refused} />
          <div class="block-actions">
            <Button type="submit" busy={busy}>
              Open the list
            </Button>
          </div>
        </Form>
      </div>
    </div>
  );
}
