import { useState } from "preact/hooks";

/**
 * A form's submit state: `busy` while `work` runs, and its failure as `error` (the server's exact
 * text, shown beside the form) instead of a toast. Resolves to whether the work succeeded.
 */
export function useSubmit() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (work: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await work();
      return true;
    } catch (e) {
      setError((e as Error).message);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, submit };
}
