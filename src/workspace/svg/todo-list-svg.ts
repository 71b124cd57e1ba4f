import { countTopLevel, type Progress, type SvgQuery, type SvgSet, type SvgTodo } from "./svg-input.ts";
import { escapeXml as esc, fitText, textWidth, toSvgText } from "./svg-text.ts";
import { baseline, boxX, fmt, maxIndentLevel, metricsFor, titleX, type ChecklistMetrics as M } from "./todo-list-layout.ts";
import { readTodoListOptions, WIDTH_RANGE, type TodoListColors } from "./todo-list-options.ts";
import { buildChecklistRows, type ChecklistRow } from "./todo-list-rows.ts";

const FONT_FAMILY = "Verdana,DejaVu Sans,sans-serif";
const MUTED = `fill-opacity="0.6"`;
const EMPTY_TEXT = "No todos yet";

const summaryText = ({ done, total }: Progress) =>
  total === 0 ? `${done} of ${total} done` : `${done} of ${total} done \u00b7 ${Math.round((done / total) * 100)}%`;
const separatorText = (count: number) => `Completed (${count})`;
const moreText = (count: number) => `+ ${count} more`;

function naturalWidth(m: M, rows: ChecklistRow[], heading: string | null, summary: string | null): number {
  const small = (text: string) => 2 * m.pad + textWidth(text, m.smallSize);
  const widths = rows.map((row) => {
    if (row.kind === "todo") return titleX(m, row.level) + textWidth(toSvgText(row.todo.title), m.fontSize) + m.pad;
    return row.kind === "separator" ? small(separatorText(row.completedCount)) + m.gap + 2 * m.box : small(moreText(row.hiddenCount));
  });
  if (heading !== null) widths.push(2 * m.pad + textWidth(heading, m.headingSize, true));
  if (summary !== null) widths.push(small(summary));
  if (rows.length === 0) widths.push(small(EMPTY_TEXT));
  return Math.ceil(Math.max(...widths));
}

function checkbox(m: M, colors: TodoListColors, x: number, top: number, checked: boolean): string {
  const y = top + (m.rowHeight - m.box) / 2;
  const s = m.box;
  const frame = `<rect x="${fmt(x + 0.5)}" y="${fmt(y + 0.5)}" width="${fmt(s - 1)}" height="${fmt(s - 1)}" rx="${fmt(s * 0.2)}"`;
  if (!checked) return `${frame} fill="none" stroke="${esc(colors.border)}" stroke-width="1.5"/>`;
  const d = `M${fmt(x + s * 0.22)} ${fmt(y + s * 0.52)}L${fmt(x + s * 0.43)} ${fmt(y + s * 0.72)}L${fmt(x + s * 0.78)} ${fmt(y + s * 0.3)}`;
  return (
    `${frame} fill="${esc(colors.check)}" stroke="${esc(colors.check)}"/>` +
    `<path d="${d}" fill="none" stroke="${esc(colors.bg)}" stroke-width="${fmt(Math.max(1.5, s * 0.14))}" stroke-linecap="round" stroke-linejoin="round"/>`
  );
}

function todoRow(m: M, colors: TodoListColors, todo: SvgTodo, level: number, top: number, width: number): string {
  const x = titleX(m, level);
  const title = fitText(toSvgText(todo.title), width - m.pad - x, m.fontSize);
  const muted = todo.completed ? ` ${MUTED} text-decoration="line-through"` : "";
  const y = baseline(top, m.rowHeight, m.fontSize);
  return `${checkbox(m, colors, boxX(m, level), top, todo.completed)}<text x="${fmt(x)}" y="${fmt(y)}"${muted}>${esc(title)}</text>`;
}

function smallText(m: M, text: string, top: number, width: number): string {
  const fitted = fitText(text, width - 2 * m.pad, m.smallSize);
  return `<text x="${m.pad}" y="${fmt(baseline(top, m.rowHeight, m.smallSize))}" font-size="${m.smallSize}" ${MUTED}>${esc(fitted)}</text>`;
}

function drawRow(m: M, colors: TodoListColors, row: ChecklistRow, top: number, width: number): string {
  if (row.kind === "todo") return todoRow(m, colors, row.todo, Math.min(row.level, maxIndentLevel(m, width)), top, width);
  if (row.kind === "more") return smallText(m, moreText(row.hiddenCount), top, width);
  const label = separatorText(row.completedCount);
  const lineStart = m.pad + textWidth(label, m.smallSize) + m.gap;
  const lineY = fmt(top + m.rowHeight / 2);
  const line =
    lineStart < width - m.pad ? `<line x1="${fmt(lineStart)}" y1="${lineY}" x2="${fmt(width - m.pad)}" y2="${lineY}" stroke="${esc(colors.border)}"/>` : "";
  return smallText(m, label, top, width) + line;
}

function progressBar(m: M, colors: TodoListColors, { done, total }: Progress, top: number, width: number): string {
  const track = width - 2 * m.pad;
  const attrs = `x="${m.pad}" y="${top}" height="${m.barHeight}" rx="${fmt(m.barHeight / 2)}"`;
  const filled = total === 0 ? 0 : (track * done) / total;
  return (
    `<rect ${attrs} width="${fmt(track)}" fill="${esc(colors.border)}" fill-opacity="0.5"/>` +
    (filled > 0 ? `<rect ${attrs} width="${fmt(filled)}" fill="${esc(colors.check)}"/>` : "")
  );
}

/**
 * Spec 2 section 4.4 todo-list.svg: the set as a checklist, honouring splitCompleted and
 * sub-todo nesting, with the query parameters of that section clamped per section 8.
 * Self-contained (no scripts, links or external references) and deterministic for a
 * given set and query.
 */
export function renderTodoList(set: SvgSet, query: SvgQuery): string {
  const options = readTodoListOptions(set, query);
  const { colors, heading } = options;
  const m = metricsFor(options.fontSize);
  const progress = countTopLevel(set.todos);
  const summary = options.showProgress ? summaryText(progress) : null;
  const rows = buildChecklistRows(set, options.maxItems);
  const width = options.width ?? Math.min(WIDTH_RANGE.max, Math.max(WIDTH_RANGE.min, naturalWidth(m, rows, heading, summary)));

  const body: string[] = [];
  let y = Math.round(m.pad * 0.6);
  if (heading !== null) {
    const text = fitText(heading, width - 2 * m.pad, m.headingSize, true);
    const headingY = fmt(baseline(y, m.headingHeight, m.headingSize));
    body.push(`<text x="${m.pad}" y="${headingY}" font-size="${m.headingSize}" font-weight="bold">${esc(text)}</text>`);
    y += m.headingHeight;
  }
  if (summary !== null) {
    const text = fitText(summary, width - 2 * m.pad, m.smallSize);
    body.push(`<text x="${m.pad}" y="${fmt(baseline(y, m.smallHeight, m.smallSize))}" font-size="${m.smallSize}" ${MUTED}>${esc(text)}</text>`);
    y += m.smallHeight;
    body.push(progressBar(m, colors, progress, y, width));
    y += m.barHeight + m.barGap;
  }
  if (rows.length === 0) {
    body.push(smallText(m, EMPTY_TEXT, y, width));
    y += m.rowHeight;
  }
  for (const row of rows) {
    body.push(drawRow(m, colors, row, y, width));
    y += m.rowHeight;
  }
  const height = y + Math.round(m.pad * 0.6);

  const name = toSvgText(set.name) || "Checklist";
  const label = esc(`${name}: ${progress.done} of ${progress.total} done`);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${label}">` +
    `<title>${label}</title>` +
    `<rect x="0.5" y="0.5" width="${width - 1}" height="${height - 1}" rx="6" fill="${esc(colors.bg)}" stroke="${esc(colors.border)}"/>` +
    `<g font-family="${FONT_FAMILY}" font-size="${m.fontSize}" fill="${esc(colors.text)}">${body.join("")}</g>` +
    `</svg>`
  );
}
