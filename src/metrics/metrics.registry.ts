/**
 * Counters, gauges and histograms in the Prometheus text exposition format 0.0.4. In-house rather
 * than prom-client: importing prom-client alone grew the executable's idle RSS by 15 MB (the budget
 * is 80 MB), and its labels are hashed into a new string on every increment. Here a series is
 * found through one small map per label, so counting a request allocates nothing.
 */
export type LabelValue = string | number;
export type MetricType = "counter" | "gauge" | "histogram";

/** One series as it travels between processes and into the text format. */
export type SeriesSnapshot = { labels: string[]; value: number } | { labels: string[]; buckets: number[]; sum: number; count: number };
export type FamilySnapshot = { name: string; help: string; type: MetricType; labelNames: string[]; bounds?: number[]; series: SeriesSnapshot[] };

type Node = Map<LabelValue, unknown>;

abstract class Family<Cell> {
  readonly #root: Node = new Map();
  readonly #cells: { labels: LabelValue[]; cell: Cell }[] = [];
  #collect: (() => void) | null = null;

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
  ) {}

  protected abstract create(): Cell;
  protected abstract snapshotOf(cell: Cell): Omit<SeriesSnapshot, "labels">;
  abstract readonly type: MetricType;

  /** The series of these label values (in `labelNames` order), made at zero the first time. */
  labels(...values: LabelValue[]): Cell {
    let node = this.#root;
    const last = values.length - 1;
    for (let i = 0; i < last; i++) {
      const value = values[i] as LabelValue;
      let next = node.get(value) as Node | undefined;
      if (!next) node.set(value, (next = new Map()));
      node = next;
    }
    const key = values[last] ?? "";
    let cell = node.get(key) as Cell | undefined;
    if (cell === undefined) {
      if (values.length !== this.labelNames.length) throw new Error(`${this.name} takes ${this.labelNames.length} labels`);
      node.set(key, (cell = this.create()));
      this.#cells.push({ labels: values, cell });
    }
    return cell;
  }

  /** Runs before each snapshot: for values read at scrape time (memory, connections). */
  onCollect(collect: () => void): this {
    this.#collect = collect;
    return this;
  }

  snapshot(): FamilySnapshot {
    this.#collect?.();
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      labelNames: [...this.labelNames],
      ...this.extra(),
      series: this.#cells.map(({ labels, cell }) => ({ labels: labels.map(String), ...this.snapshotOf(cell) }) as SeriesSnapshot),
    };
  }

  protected extra(): { bounds?: number[] } {
    return {};
  }
}

export class CounterCell {
  value = 0;
  inc(by = 1): void {
    this.value += by;
  }
}

export class GaugeCell extends CounterCell {
  set(value: number): void {
    this.value = value;
  }
  dec(by = 1): void {
    this.value -= by;
  }
}

export class HistogramCell {
  /** Per bucket, not cumulative; the last one is +Inf. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  constructor(readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length + 1);
  }
  observe(value: number): void {
    let i = 0;
    while (i < this.bounds.length && value > (this.bounds[i] as number)) i++;
    this.counts[i] = (this.counts[i] as number) + 1;
    this.sum += value;
    this.count++;
  }
}

export class Counter extends Family<CounterCell> {
  readonly type = "counter";
  protected create() {
    return new CounterCell();
  }
  protected snapshotOf(cell: CounterCell) {
    return { value: cell.value };
  }
}

export class Gauge extends Family<GaugeCell> {
  readonly type = "gauge";
  protected create() {
    return new GaugeCell();
  }
  protected snapshotOf(cell: GaugeCell) {
    return { value: cell.value };
  }
}

export class Histogram extends Family<HistogramCell> {
  readonly type = "histogram";
  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    readonly bounds: readonly number[],
  ) {
    super(name, help, labelNames);
  }
  protected create() {
    return new HistogramCell(this.bounds);
  }
  protected snapshotOf(cell: HistogramCell) {
    return { buckets: [...cell.counts], sum: cell.sum, count: cell.count };
  }
  protected override extra() {
    return { bounds: [...this.bounds] };
  }
}

/** The families of one process, in the order they were made. */
export class Registry {
  readonly #families: Family<unknown>[] = [];

  #add<F extends Family<unknown>>(family: F): F {
    this.#families.push(family);
    return family;
  }
  counter(name: string, help: string, labelNames: readonly string[] = []) {
    return this.#add(new Counter(name, help, labelNames));
  }
  gauge(name: string, help: string, labelNames: readonly string[] = []) {
    return this.#add(new Gauge(name, help, labelNames));
  }
  histogram(name: string, help: string, labelNames: readonly string[], bounds: readonly number[]) {
    return this.#add(new Histogram(name, help, labelNames, bounds));
  }
  snapshot(): FamilySnapshot[] {
    return this.#families.map((f) => f.snapshot());
  }
}

/** Several processes' snapshots as one: series with the same labels are added up, buckets bucket by bucket. */
export function mergeSnapshots(lists: readonly FamilySnapshot[][]): FamilySnapshot[] {
  const byName = new Map<string, { family: FamilySnapshot; series: Map<string, SeriesSnapshot> }>();
  for (const families of lists) {
    for (const family of families) {
      let merged = byName.get(family.name);
      if (!merged) byName.set(family.name, (merged = { family, series: new Map() }));
      for (const series of family.series) {
        const key = series.labels.join("\u0000");
        const seen = merged.series.get(key);
        if (!seen) merged.series.set(key, structuredClone(series));
        else if ("value" in seen && "value" in series) seen.value += series.value;
        else if ("buckets" in seen && "buckets" in series) {
          seen.buckets = seen.buckets.map((n, i) => n + (series.buckets[i] ?? 0));
          seen.sum += series.sum;
          seen.count += series.count;
        }
      }
    }
  }
  return [...byName.values()].map(({ family, series }) => ({ ...family, series: [...series.values()] }));
}

const escapeHelp = (text: string) => text.replaceAll("\\", "\\\\").replaceAll("\n", "\\n");
const escapeLabel = (text: string) => text.replaceAll("\\", "\\\\").replaceAll("\n", "\\n").replaceAll('"', '\\"');
const formatNumber = (n: number) => (Number.isFinite(n) ? String(n) : Number.isNaN(n) ? "NaN" : n > 0 ? "+Inf" : "-Inf");

function labelText(names: readonly string[], values: readonly string[], extra?: [string, string]): string {
  const pairs = names.map((name, i) => `${name}="${escapeLabel(values[i] ?? "")}"`);
  if (extra) pairs.push(`${extra[0]}="${escapeLabel(extra[1])}"`);
  return pairs.length === 0 ? "" : `{${pairs.join(",")}}`;
}

/** The text exposition format, version 0.0.4: HELP and TYPE, then one line a sample; histogram buckets cumulative, ending in +Inf. */
export function renderText(families: readonly FamilySnapshot[]): string {
  const out: string[] = [];
  for (const family of families) {
    out.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`);
    for (const series of family.series) {
      if ("value" in series) {
        out.push(`${family.name}${labelText(family.labelNames, series.labels)} ${formatNumber(series.value)}`);
        continue;
      }
      const bounds = family.bounds ?? [];
      let cumulative = 0;
      series.buckets.forEach((n, i) => {
        cumulative += n;
        const le = i < bounds.length ? formatNumber(bounds[i] as number) : "+Inf";
        out.push(`${family.name}_bucket${labelText(family.labelNames, series.labels, ["le", le])} ${formatNumber(cumulative)}`);
      });
      out.push(`${family.name}_sum${labelText(family.labelNames, series.labels)} ${formatNumber(series.sum)}`);
      out.push(`${family.name}_count${labelText(family.labelNames, series.labels)} ${formatNumber(series.count)}`);
    }
  }
  return `${out.join("\n")}\n`;
}
