/**
 * One kind of list the store fetches: `run` fetches now, `schedule` once after a short pause (a
 * burst of events costs one request). An answer that raced with a change (`touch`) may predate
 * it, so the list is fetched once more when the answer lands.
 */
export function createRefetcher(load: (current: () => boolean) => Promise<void>, pauseMs: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: object | null = null;
  let dirty = false;

  const run = async () => {
    clearTimeout(timer);
    const token = {};
    running = token;
    dirty = false;
    try {
      // A newer run supersedes this one: its answer is then dropped.
      await load(() => running === token);
    } finally {
      if (running === token) {
        running = null;
        if (dirty) schedule();
      }
    }
  };
  const schedule = () => {
    if (running) dirty = true;
    else {
      clearTimeout(timer);
      timer = setTimeout(() => void run(), pauseMs);
    }
  };
  return {
    run,
    schedule,
    touch: () => {
      if (running) dirty = true;
    },
    stop: () => {
      clearTimeout(timer);
      running = null;
    },
  };
}
