import { useState } from "preact/hooks";
import { type DocsSource, docsApi } from "../../api/docs.ts";
import { TextField } from "../../components/field.tsx";
import { FormDialog } from "../../components/form-dialog.tsx";
import { FormError } from "../../components/form-error.tsx";
import { splitList } from "../../lib/format.ts";

/**
 * Changes a source in place: its name, branch, docs folder, locales, API base or token (the token
 * is write-only: empty keeps it, a new one replaces it). Its cache is emptied by the change.
 */
export function EditSourceDialog({ source, onClose, onSaved }: { source: DocsSource; onClose: () => void; onSaved: () => Promise<void> }) {
  const [name, setName] = useState(source.name);
  const [branch, setBranch] = useState(source.branch);
  const [root, setRoot] = useState(source.docs_root);
  const [locales, setLocales] = useState(source.locales.join(", "));
  const [apiBase, setApiBase] = useState(source.api_base);
  const [token, setToken] = useState("");
  const [error, setError] = useState<string | null>(null);
  const hosted = source.kind === "github";
  const save = async () => {
    const list = splitList(locales);
    await docsApi.update(source.id, {
      name,
      docs_root: root,
      locales: list,
      ...(list[0] ? { default_locale: list.includes(source.default_locale) ? source.default_locale : list[0] } : {}),
      ...(hosted ? { branch, api_base: apiBase, ...(token ? { token } : {}) } : {}),
    });
    await onSaved();
  };
  return (
    <FormDialog open title={`Edit ${source.name}`} confirmLabel="Save" onSubmit={save} onError={setError} onClose={onClose}>
      <TextField label="Name" value={name} onValue={setName} />
      {hosted ? <TextField label="Branch" value={branch} onValue={setBranch} /> : null}
      <TextField label="Docs folder" value={root} onValue={setRoot} />
      <TextField label="Locales" value={locales} onValue={setLocales} hint="The first is the default, unless the current default is still listed." />
      {hosted ? (
        <>
          <TextField label="API base URL" type="url" value={apiBase} onValue={setApiBase} />
          <TextField
            label="New access token"
            type="password"
            value={token}
            onValue={setToken}
            autocomplete="new-password"
            hint={source.token_set ? "A token is stored; leave empty to keep it." : "None stored."}
          />
        </>
      ) : null}
      <FormError message={error} />
    </FormDialog>
  );
}
