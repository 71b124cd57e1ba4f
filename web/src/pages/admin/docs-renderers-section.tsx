import { useEffect, useState } from "preact/hooks";
import { type DocsSettings, docsApi } from "../../api/docs.ts";
import { Card } from "../../components/card.tsx";
import { TextField } from "../../components/field.tsx";
import { FormCard } from "../../components/form-card.tsx";
import { FormError } from "../../components/form-error.tsx";
import { toast } from "../../lib/toasts.ts";
import { useLoad } from "../../lib/use-load.ts";
import { splitList } from "../../lib/format.ts";

/** The services the docs site may call: a Kroki-compatible diagram renderer and a LibreTranslate-compatible translator. */
export function DocsRenderersSection() {
  const loaded = useLoad(() => docsApi.settings());
  const [form, setForm] = useState<DocsSettings | null>(null);
  const [locales, setLocales] = useState("");
  const [key, setKey] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (loaded.data) {
      setForm(loaded.data);
      setLocales(loaded.data.translate_locales.join(", "));
    }
  }, [loaded.data]);
  if (!form)
    return (
      <Card id="docs-renderers" title="Diagrams and translation">
        {loaded.error ? <p class="form-error">{loaded.error}</p> : <p class="muted">Loading…</p>}
      </Card>
    );
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      const saved = await docsApi.updateSettings({
        kroki_url: form.kroki_url,
        translate_url: form.translate_url,
        translate_locales: splitList(locales),
        ...(key ? { translate_key: key } : {}),
      });
      setForm(saved);
      setKey("");
      toast("Docs renderers saved.", "success");
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <FormCard id="docs-renderers" title="Diagrams and translation" submitLabel="Save" busy={busy} onSubmit={() => void save()}>
      <TextField
        label="Kroki URL"
        type="url"
        value={form.kroki_url}
        onValue={(v) => setForm({ ...form, kroki_url: v })}
        placeholder="https://kroki.io"
        hint="Renders ```mermaid, plantuml, graphviz and other diagram blocks; empty shows them as code."
      />
      <TextField
        label="Translation API URL"
        type="url"
        value={form.translate_url}
        onValue={(v) => setForm({ ...form, translate_url: v })}
        placeholder="https://libretranslate.example.com"
        hint="A LibreTranslate-compatible API; empty turns machine translation off."
      />
      <TextField
        label="Translation API key"
        type="password"
        value={key}
        onValue={setKey}
        autocomplete="new-password"
        hint={form.translate_key_set ? "A key is stored. Leave empty to keep it." : "Only if the service needs one."}
      />
      <TextField
        label="Machine-translated locales"
        value={locales}
        onValue={setLocales}
        placeholder="de, es"
        hint="Pages missing in these locales are translated from the source's default locale."
      />
      <FormError message={error} />
    </FormCard>
  );
}
