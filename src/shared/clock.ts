/** Time is passed in, never read from a hidden Date.now(), so tests can fix it. */
export type Clock = { now(): number };

export const systemClock: Clock = { now: () => Date.now() };
