import { useEffect, useState } from "preact/hooks";
import { type AdminUser, adminApi } from "../../api/admin.ts";
import { type ForwardAuthTestResult, forwardAuthApi } from "../../api/forward-auth.ts";
import { Button } from "../../components/button.tsx";
import { Choices } from "../../components/choices.tsx";
import { SelectField, TextField } from "../../components/field.tsx";
import { Form } from "../../components/form.tsx";
import { FormError } from "../../components/form-error.tsx";
import { useSubmit } from "../../lib/use-submit.ts";

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].map((m) => ({ value: m, label: m }));

const DECISIONS: Record<ForwardAuthTestResult["decision"], { text: string; ok: boolean }> = {
  allow: { text: "Allowed", ok: true },
  bypass: { text: "Passes: a bypass path", ok: true },
  sign_in: { text: "Sent to sign in", ok: false },
  mfa: { text: "Sent to sign in with a second factor", ok: false },
  deny: { text: "Denied", ok: false },
  no_rule: { text: "Denied: no rule covers it", ok: false },
};

/** The people matching what was typed, after a short pause; the chosen one stays listed. */
function usePeople(typed: string, chosen: AdminUser | null): AdminUser[] {
  const [found, setFound] = useState<AdminUser[]>([]);
  useEffect(() => {
    const q = typed.trim();
    if (!q) return setFound([]);
    const timer = setTimeout(
      () =>
        void adminApi.users(q, 5).then(
          (page) => setFound(page.users),
          () => setFound([]),
        ),
      250,
    );
    return () => clearTimeout(timer);
  }, [typed]);
  return chosen && !found.some((u) => u.id === chosen.id) ? [chosen, ...found] : found;
}

/**
 * "Test this rule": what the check would answer for an address, signed out or as a person picked
 * from the user search (with a fresh session without a second factor), and the headers the app gets.
 */
export function RuleTest({ initialUrl = "" }: { initialUrl?: string }) {
  const [url, setUrl] = useState(initialUrl);
  const [method, setMethod] = useState("GET");
  const [typed, setTyped] = useState("");
  const [chosen, setChosen] = useState<AdminUser | null>(null);
  const [result, setResult] = useState<ForwardAuthTestResult | null>(null);
  const { busy, error, submit } = useSubmit();
  const people = usePeople(typed, chosen);
  const ids = ["", ...people.map((u) => u.id)];
  return (
    <section class="test-login" aria-label="Test this rule">
      <h3>Test this rule</h3>
      <p class="muted">What Cairn answers the proxy for an address, as someone signed out or as a person you pick. Nothing changes.</p>
      <Form onSubmit={() => void submit(async () => setResult(await forwardAuthApi.test({ url, method, ...(chosen ? { user_id: chosen.id } : {}) })))}>
        <TextField label="Address to test" type="url" value={url} onValue={setUrl} placeholder="https://media.home.example/library" />
        <SelectField label="Method" value={method} options={METHODS} onValue={setMethod} />
        <TextField
          label="Find a person (optional)"
          value={typed}
          onValue={setTyped}
          autocomplete="off"
          hint="The start of a username, email or name; leave empty to test as someone signed out."
        />
        <Choices
          legend="Test as"
          name="forward-auth-test-as"
          options={ids}
          value={chosen?.id ?? ""}
          onValue={(id) => setChosen(people.find((u) => u.id === id) ?? null)}
          describe={(id) => {
            const u = people.find((p) => p.id === id);
            return u ? { title: u.username, help: `${u.name} · ${u.email}` } : { title: "Someone signed out", help: "No session at all." };
          }}
        />
        <FormError message={error} />
        <div class="form-actions start">
          <Button type="submit" variant="secondary" busy={busy}>
            Test
          </Button>
        </div>
      </Form>
      {result ? <TestResult result={result} /> : null}
    </section>
  );
}

function TestResult({ result }: { result: ForwardAuthTestResult }) {
  const d = DECISIONS[result.decision];
  const headers = Object.entries(result.headers);
  return (
    <div class={`notice ${d.ok ? "notice-success" : "notice-danger"}`} role="status" aria-label="Test result">
      <p>
        <strong>{d.text}</strong> ({result.decision})
      </p>
      <p>{result.reason}</p>
      {headers.length ? (
        <table class="claims-table" aria-label="Headers the app gets">
          <tbody>
            {headers.map(([name, value]) => (
              <tr key={name}>
                <th scope="row">
                  <code>{name}</code>
                </th>
                <td>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
