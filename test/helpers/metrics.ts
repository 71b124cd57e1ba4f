import { expect } from "bun:test";
import parsePrometheusTextFormat, { type ParsedFamily, type ParsedSample } from "parse-prometheus-text-format";

export const METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/** A scrape parsed by a Prometheus text-format parser from npm, by family name. */
export type Scrape = { text: string; families: Map<string, ParsedFamily> };

/** GET /metrics as a Prometheus server would; fails the test unless it is a 200 in the text format. */
export async function scrape(url: string, headers: Record<string, string> = {}): Promise<Scrape> {
  const res = await fetch(`${url}/metrics`, { headers });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}: ${text}`);
  expect(res.headers.get("content-type")).toBe(METRICS_CONTENT_TYPE);
  return { text, families: new Map(parsePrometheusTextFormat(text).map((f) => [f.name, f])) };
}

const matches = (sample: ParsedSample, labels: Record<string, string>) => Object.entries(labels).every(([k, v]) => sample.labels?.[k] === v);

/** The samples of `name` whose labels include `labels`. */
export function samples(s: Scrape, name: string, labels: Record<string, string> = {}): ParsedSample[] {
  return (s.families.get(name)?.metrics ?? []).filter((m) => matches(m, labels));
}

/** The summed value of a counter's or gauge's samples whose labels include `labels` (0 when none). */
export function sampleValue(s: Scrape, name: string, labels: Record<string, string> = {}): number {
  return samples(s, name, labels).reduce((sum, m) => sum + ("value" in m ? Number(m.value) : Number.NaN), 0);
}

export type HistogramSeries = { labels: Record<string, string>; le: number[]; cumulative: number[]; count: number; sum: number };

const SERIES_LINE = /^(\w+?)(_bucket|_sum|_count)(?:\{(.*)\})? (\S+)$/;
const LE = /(?:^|,)le="([^"]*)"/;

/**
 * The series of histogram `name` whose labels include `labels`. The parser reads the labels of a
 * histogram's series only when it has none (it merges labelled ones into one), so each series is
 * handed to it alone with its labels moved aside, and the labels are parsed on their own.
 */
export function histograms(s: Scrape, name: string, labels: Record<string, string> = {}): HistogramSeries[] {
  const groups = new Map<string, string[]>();
  for (const line of s.text.split("\n")) {
    const m = SERIES_LINE.exec(line);
    if (!m || m[1] !== name) continue;
    const [, , suffix, labelText = "", value] = m;
    const le = LE.exec(labelText)?.[1];
    const key = labelText.replace(LE, "").replace(/^,/, "");
    let lines = groups.get(key);
    if (!lines) groups.set(key, (lines = [`# TYPE ${name} histogram`]));
    lines.push(`${name}${suffix}${le === undefined ? "" : `{le="${le}"}`} ${value}`);
  }
  return [...groups.entries()]
    .map(([labelText, lines]) => {
      const [series] = parsePrometheusTextFormat(`${lines.join("\n")}\n`)[0]?.metrics ?? [];
      if (!series || !("buckets" in series)) throw new Error(`${name}{${labelText}} is not a histogram series`);
      const parsedLabels = labelText === "" ? {} : (parsePrometheusTextFormat(`x{${labelText}} 1\n`)[0]?.metrics[0]?.labels ?? {});
      const entries = Object.entries(series.buckets)
        .map(([le, n]) => [le === "+Inf" ? Number.POSITIVE_INFINITY : Number(le), Number(n)] as const)
        .sort((a, b) => a[0] - b[0]);
      return {
        labels: parsedLabels,
        le: entries.map((e) => e[0]),
        cumulative: entries.map((e) => e[1]),
        count: Number(series.count),
        sum: Number(series.sum),
      };
    })
    .filter((series) => Object.entries(labels).every(([k, v]) => series.labels[k] === v));
}
