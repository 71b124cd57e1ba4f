/**
 * One area of `npm run bench:scale` (issue 43): it fills a throwaway database (a fresh data folder
 * per size, data written through the API or by SQL in the exact shape the server writes), runs the
 * work against a fresh server on loopback, and returns its figures. The runner prints each figure
 * for the small and the large size side by side, with their ratio.
 */
export type Size = "small" | "large";

export type Figure = {
  /** The table row, e.g. "todo list, first page: CPU per request". The same label at both sizes. */
  row: string;
  value: number;
  unit: "ms" | "µs" | "MB" | "KB" | "count" | "requests";
  /** What was measured, when the label does not say it (sizes, rounds). */
  note?: string;
};

export interface ScaleArea {
  /** Short name, used by SCALE_ONLY=<name,name> to run a subset. */
  name: string;
  /** What "small" and "large" mean for this area, for the report's heading (e.g. "10^3 / 10^6 grants"). */
  sizes: Record<Size, string>;
  /** Fills, measures and cleans up after itself (servers stopped, folders removed). */
  measure(size: Size): Promise<Figure[]>;
}

/** SCALE_QUICK=1 divides the large sizes by this, for a fast look while developing. */
export const quickDivisor = () => (process.env.SCALE_QUICK ? 100 : 1);
