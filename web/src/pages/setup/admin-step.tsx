import type { User } from "../../api/auth.ts";
import { TextField } from "../../components/field.tsx";
import { AccountFields } from "../auth/account-fields.tsx";
import type { AccountErrors, AccountForm } from "../auth/account-form.ts";
import { FormError } from "../../components/form-error.tsx";

type Props = {
  admin: User | null;
  blocked: string | null;
  account: AccountForm;
  errors: AccountErrors;
  setAccount: (key: keyof AccountForm, value: string) => void;
  needsToken: boolean;
  token: string;
  tokenError: string | undefined;
  setToken: (value: string) => void;
};

/** Step one: the administrator account (the instance's first account becomes its admin). */
export function AdminStep({ admin, blocked, account, errors, setAccount, needsToken, token, tokenError, setToken }: Props) {
  if (admin)
    return (
      <>
        <p>Cairn gives your household or team single sign-on and a shared todo workspace, from this one server and one database file.</p>
        <p class="notice notice-success">
          You are signed in as <strong>{admin.username}</strong>, an administrator. Next, connect the workspace to an identity provider and decide who may sign
          in.
        </p>
      </>
    );
  if (blocked)
    return (
      <div class="notice" role="alert">
        <p>{blocked}</p>
        <p>
          This instance already has accounts. <a href="/login?return_to=%2Fsetup">Sign in as an administrator</a> to finish the setup.
        </p>
      </div>
    );
  return (
    <>
      <p>Cairn gives your household or team single sign-on and a shared todo workspace, from this one server and one database file.</p>
      <p>
        First, create the administrator account. Then connect the workspace to an identity provider and decide who may sign in; you can change every answer
        later.
      </p>
      <AccountFields form={account} errors={errors} set={setAccount} />
      {needsToken ? (
        <TextField
          label="Setup token"
          type="password"
          value={token}
          error={tokenError}
          onValue={setToken}
          hint="The value of CAIRN_SETUP_TOKEN on the server."
        />
      ) : null}
      <FormError message={errors.form} />
    </>
  );
}
