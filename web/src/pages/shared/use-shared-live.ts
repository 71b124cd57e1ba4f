import { useEffect, useRef, useState } from "preact/hooks";
import { REFETCH_MESSAGE, SHARED_SET_EVENT_TYPES } from "../../../../src/contract/realtime.ts";

export type SharedLiveStatus = "connecting" | "live" | "offline";

// The team stream's event names (spec 2 section 6), sent for this set only; `refetch` after a gap.
const EVENTS = [...SHARED_SET_EVENT_TYPES, REFETCH_MESSAGE];

/**
 * Follows a shared set over SSE (ARCHITECTURE section 4 "Realtime"): every event, and every
 * reconnect, asks the page to reload. A refused stream (link deleted, email no longer allowed)
 * also reloads, so the page can say why, and is retried with a growing delay.
 */
export function useSharedLive(url: string | null, onChange: () => void): SharedLiveStatus {
  const [status, setStatus] = useState<SharedLiveStatus>("connecting");
  const changed = useRef(onChange);
  changed.current = onChange;
  useEffect(() => {
    if (!url) return;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let debounce: ReturnType<typeof setTimeout> | undefined;
    let delay = 1000;
    let opened = false;
    const bump = () => {
      clearTimeout(debounce);
      debounce = setTimeout(() => changed.current(), 60);
    };
    const connect = () => {
      setStatus("connecting");
      const current = new EventSource(url);
      source = current;
      current.onopen = () => {
        delay = 1000;
        setStatus("live");
        // Events may have been missed while the stream was down.
        if (opened) bump();
        opened = true;
      };
      current.onerror = () => {
        if (current.readyState !== EventSource.CLOSED) return setStatus("connecting");
        setStatus("offline");
        bump();
        retry = setTimeout(connect, delay);
        delay = Math.min(delay * 2, 30_000);
      };
      for (const type of EVENTS) current.addEventListener(type, bump);
    };
    connect();
    return () => {
      clearTimeout(retry);
      clearTimeout(debounce);
      source?.close();
    };
  }, [url]);
  return status;
}
