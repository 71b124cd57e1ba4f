import { useState } from "preact/hooks";
import { toast } from "./toasts.ts";

/**
 * Runs one action at a time for a component: `busy` names the running one (for its spinner),
 * a failure becomes an error toast, a success an optional confirmation. Resolves to success.
 */
export function useAction() {
  const [busy, setBusy] = useState<string | null>(null);
  const run = async (key: string, work: () => Promise<unknown>, success?: string): Promise<boolean> => {
    setBusy(key);
    try {
      await work();
      if (success) toast(success, "success");
      return true;
    } catch (e) {
      toast((e as Error).message, "error");
      return false;
    } finally {
      setBusy(null);
    }
  };
  return { busy, run };
}
