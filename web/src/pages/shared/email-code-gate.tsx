import { useState } from "preact/hooks";
import { shareLinksApi } from "../../api/share-links.ts";
import { Button } from "../../components/button.tsx";
import { TextField } from "../../components/field.tsx";
import { Form } from "../../components/form.tsx";
import { useSubmit } from "../../lib/use-submit.ts";

type Props = {
  token: string;
  initial: string;
  /** Opens the list with the verified code's grant; rejects with the server's words. */
  onVerified: (email: string, grant: string) => Promise<unknown>;
};

/**
 * Issue 44: a link that requires an email code asks for the address, mails a code to it (the server
 * answers alike for any address, so the page promises nothing), then takes the code.
 */
export function EmailCodeGate({ token, initial, onVerified }: Props) {
  const [email, setEmail] = useState(initial);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [code, setCode] = useState("");
  const { busy, error, submit } = useSubmit();

  const send = (to: string) =>
    submit(async () => {
      if (!to) throw new Error("Enter your email address.");
      await shareLinksApi.requestCode(token, to);
      setCode("");
      setSentTo(to);
    });
  const verify = (to: string) =>
    submit(async () => {
      if (!code.trim()) throw new Error("Enter the code from the mail.");
      const { grant } = await shareLinksApi.verifyCode(token, to, code.trim());
      await onVerified(to, grant);
    });

  return (
    <div class="card narrow share-gate">
      <div class="card-body">
        <h1>This list is shared with some people only</h1>
        {sentTo === null ? (
          <Form onSubmit={() => void send(email.trim())}>
            <p class="muted">Enter the email address it was shared with. If it is on the list, a one-time code is mailed to it.</p>
            <TextField label="Your email" type="email" autocomplete="email" value={email} onValue={setEmail} error={error} />
            <div class="block-actions">
              <Button type="submit" busy={busy}>
                Send me a code
              </Button>
            </div>
          </Form>
        ) : (
          <Form onSubmit={() => void verify(sentTo)}>
            <p class="muted" role="status">
              If {sentTo} is on the list, a code is on its way to it. It works once, within 10 minutes.
            </p>
            <TextField label="Code from the mail" autocomplete="one-time-code" inputMode="numeric" autoFocus value={code} onValue={setCode} error={error} />
            <div class="block-actions">
              <Button type="submit" busy={busy}>
                Open the list
              </Button>
              <Button variant="secondary" disabled={busy} onClick={() => void send(sentTo)}>
                Send a new code
              </Button>
              <Button variant="ghost" disabled={busy} onClick={() => setSentTo(null)}>
                Use another email
              </Button>
            </div>
          </Form>
        )}
      </div>
    </div>
  );
}
