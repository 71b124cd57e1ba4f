import { useEffect, useRef, useState } from "preact/hooks";

/** Rows rendered at first, and added each time the end of them nears the screen. */
export const CHUNK = 150;
/** How far below the screen the end of the rendered rows may be before more are added. */
const AHEAD = "1200px";

/**
 * The first rows of a long list in chunks, and a marker to put after them (issue 43): a set of 100,000
 * todos renders its first screenfuls, and more as the person scrolls, or moves down with the
 * keyboard (a focused row scrolls into view, and the marker with it). Another set is another
 * component (keyed by set), which starts again from the top.
 */
export function useChunks<T>(items: T[]): { chunks: T[][]; marker: preact.JSX.Element | null } {
  const [current, setLimit] = useState(CHUNK);
  const ref = useRef<HTMLDivElement>(null);
  const more = items.length > current;

  useEffect(() => {
    const marker = ref.current;
    if (!more || !marker || typeof IntersectionObserver === "undefined") return;
    // A new observer per size: its first report says whether the marker is still near, so a
    // screen taller than the rows added fills up without waiting for a scroll.
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setLimit((n) => n + CHUNK);
      },
      { rootMargin: `0px 0px ${AHEAD} 0px` },
    );
    observer.observe(marker);
    return () => observer.disconnect();
  }, [more, current]);

  const chunks: T[][] = [];
  for (let at = 0; at < Math.min(items.length, current); at += CHUNK) chunks.push(items.slice(at, at + CHUNK));
  return {
    chunks,
    marker: more ? <div ref={ref} class="ws-more-rows" aria-hidden="true" /> : null,
  };
}

/** Whether two chunks hold the same items, in order: a chunk that does not change is not rendered again. */
export const sameItems = <T,>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((item, i) => item === b[i]);
