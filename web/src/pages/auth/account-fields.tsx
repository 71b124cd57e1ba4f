import { TextField } from "../../components/field.tsx";
import type { AccountErrors, AccountForm } from "./account-form.ts";

type Props = {
  form: AccountForm;
  errors: AccountErrors;
  set: (key: keyof AccountForm, value: string) => void;
  /** The email is the one an invitation admits: shown, not editable. */
  emailLocked?: boolean;
};

/** Username, email, name and password of a new account. */
export function AccountFields({ form, errors, set, emailLocked = false }: Props) {
  return (
    <>
      <TextField
        label="Username"
        value={form.username}
        onValue={(v) => set("username", v)}
        autocomplete="username"
        error={errors.username}
        hint="3 to 32 lowercase letters, digits, _ or -."
      />
      <TextField
        label="Email"
        type="email"
        value={form.email}
        onValue={(v) => set("email", v)}
        autocomplete="email"
        error={errors.email}
        readOnly={emailLocked}
        hint={emailLocked ? "Your invitation is for this address: the account is made with it." : undefined}
      />
      <TextField label="Display name (optional)" value={form.name} onValue={(v) => set("name", v)} autocomplete="name" />
      <TextField
        label="Password"
        type="password"
        value={form.password}
        onValue={(v) => set("password", v)}
        autocomplete="new-password"
        error={errors.password}
        hint="At least 10 characters."
      />
    </>
  );
}
