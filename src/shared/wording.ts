/** "1 minute", "5 minutes": a count with its noun, singular or plural. */
export const countOf = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** A wait in seconds as whole minutes, rounded up and never "0 minutes". */
export const minutesOf = (seconds: number): string => countOf(Math.max(1, Math.ceil(seconds / 60)), "minute");
