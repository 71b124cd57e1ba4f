import { useEffect } from "preact/hooks";
import type { LiveListener } from "./store/workspace-store.ts";

/** Loads a view now, and again shortly after live events (a burst of them loads once): for views the store does not keep. */
export function useLiveReload(load: () => unknown, subscribe: (listener: LiveListener) => () => void, key: string) {
  useEffect(() => {
    void load();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = subscribe(() => {
      clearTimeout(timer);
      timer = setTimeout(() => void load(), 100);
    });
    return () => (clearTimeout(timer), off());
  }, [key]);
}
