/** Sizes of the checklist, all derived from the font size so every size keeps its proportions. */
export type ChecklistMetrics = {
  fontSize: number;
  pad: number;
  rowHeight: number;
  box: number;
  gap: number;
  indent: number;
  headingSize: number;
  headingHeight: number;
  smallSize: number;
  smallHeight: number;
  barHeight: number;
  barGap: number;
};

export function metricsFor(fontSize: number): ChecklistMetrics {
  const headingSize = Math.round(fontSize * 1.25);
  const smallSize = Math.max(9, Math.round(fontSize * 0.85));
  return {
    fontSize,
    pad: Math.round(fontSize * 1.15),
    rowHeight: Math.round(fontSize * 1.9),
    box: Math.round(fontSize * 1.1),
    gap: Math.round(fontSize * 0.6),
    indent: Math.round(fontSize * 1.6),
    headingSize,
    headingHeight: Math.round(headingSize * 1.7),
    smallSize,
    smallHeight: Math.round(smallSize * 1.7),
    barHeight: Math.max(4, Math.round(fontSize * 0.35)),
    barGap: Math.round(fontSize * 0.9),
  };
}

/** Left edge of a row's checkbox. */
export const boxX = (m: ChecklistMetrics, level: number) => m.pad + level * m.indent;

/** Left edge of a row's title. */
export const titleX = (m: ChecklistMetrics, level: number) => boxX(m, level) + m.box + m.gap;

/** Deepest indentation that still leaves room for about four characters of title. */
export function maxIndentLevel(m: ChecklistMetrics, width: number): number {
  return Math.max(0, Math.floor((width - titleX(m, 0) - m.pad - 4 * m.fontSize) / m.indent));
}

/** Baseline of text of `size` centred in a line box starting at `top`; Verdana's cap height is about 0.72em. */
export const baseline = (top: number, height: number, size: number) => top + height / 2 + size * 0.36;

/** Coordinates printed with at most two decimals, so output is compact and deterministic. */
export const fmt = (value: number) => `${Math.round(value * 100) / 100 || 0}`;
