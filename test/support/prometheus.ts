import assert from 'node:assert/strict';
import parsePrometheusTextFormat, { type MetricFamily, type Sample } from 'parse-prometheus-text-format';

/** A scrape parsed by a real exposition-format parser, with lookups for the tests. */
export class Scrape {
  private readonly families: Map<string, MetricFamily>;

  constructor(readonly text: string) {
    this.families = new Map(parsePrometheusTextFormat(text).map((f) => [f.name, f]));
  }

  static async of(url: string): Promise<Scrape> {
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    return new Scrape(await res.text());
  }

  has(name: string): boolean {
    return this.families.has(name);
  }

  type(name: string): MetricFamily['type'] | undefined {
    return this.families.get(name)?.type;
  }

  /** The sample of `name` whose labels include `labels`; undefined when there is none. */
  sample(name: string, labels: Record<string, string> = {}): Sample | undefined {
    const family = this.families.get(name);
    return family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  }

  /** The value of a counter or gauge sample; throws when it is missing. */
  value(name: string, labels: Record<string, string> = {}): number {
    const sample = this.sample(name, labels);
    assert.ok(sample?.value !== undefined, `no sample ${name} ${JSON.stringify(labels)}`);
    return Number(sample.value);
  }

  /** Every sample of `name` as `label values → value`, for exact comparisons. */
  series(name: string, labelNames: readonly string[]): Record<string, number> {
    const out: Record<string, number> = {};
    for (const m of this.families.get(name)?.metrics ?? []) out[labelNames.map((l) => m.labels?.[l]).join(' ')] = Number(m.value);
    return out;
  }
}
