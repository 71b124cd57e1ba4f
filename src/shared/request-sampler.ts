/** An answer slower than this always gets its line, whatever the rate: operators look for slow answers. */
export const SLOW_MS = 1000;

const SECOND_MS = 1000;

type Schedule = (run: () => void, ms: number) => void;
const unrefTimer: Schedule = (run, ms) => void setTimeout(run, ms).unref();

/**
 * Which answered requests get a log line of their own: every refusal or failure (status 400 and
 * up), every slow answer, and of the others at most `perSecond` in any one second (0: every one).
 * Past that they are only counted: a second after the first one went unlogged, `summarize` is
 * told how many did since it was last told. The metrics count every request either way. Under
 * load a line for each request cost more CPU than answering an introspection itself.
 */
export function requestSampler(perSecond: number, summarize: (notLogged: number) => void, now = () => performance.now(), schedule: Schedule = unrefTimer) {
  let windowStart = Number.NEGATIVE_INFINITY;
  let logged = 0;
  let notLogged = 0;
  const report = () => {
    summarize(notLogged);
    notLogged = 0;
  };
  return (status: number, ms: number): boolean => {
    if (perSecond === 0 || status >= 400 || ms >= SLOW_MS) return true;
    const t = now();
    if (t - windowStart >= SECOND_MS) {
      windowStart = t;
      logged = 0;
    }
    if (logged < perSecond) {
      logged++;
      return true;
    }
    if (notLogged++ === 0) schedule(report, SECOND_MS);
    return false;
  };
}
