import { toast } from "../../lib/toasts.ts";

/** Runs a change and shows its failure as a toast, then `afterFailure`. Resolves to success. */
export async function attempt(work: () => Promise<unknown>, afterFailure: () => void = () => {}): Promise<boolean> {
  try {
    await work();
    return true;
  } catch (e) {
    toast((e as Error).message, "error");
    afterFailure();
    return false;
  }
}

/**
 * Runs a change, shows its failure as a toast, and reloads either way: the list then shows
 * exactly what the server holds (and what everyone else sees). Resolves to success.
 */
export async function attemptThenReload(work: () => Promise<unknown>, reload: () => Promise<void>): Promise<boolean> {
  try {
    return await attempt(work);
  } finally {
    await reload();
  }
}
