import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { z } from 'zod';

const LabelsSchema = z.record(z.string());

const SampleSchema = z.object({ value: z.string(), labels: LabelsSchema.optional() });

const FamilySchema = z.object({
  name: z.string(),
  help: z.string(),
  type: z.enum(['COUNTER', 'GAUGE', 'HISTOGRAM', 'SUMMARY', 'UNTYPED']),
  metrics: z.array(SampleSchema),
});

export type MetricFamily = z.infer<typeof FamilySchema>;
type Sample = z.infer<typeof SampleSchema>;

/**
 * A scrape's text, parsed by parse-prometheus-text-format and checked with zod. The package folds
 * a labelled histogram's series into one (it expects unlabelled ones), so histograms are handed to
 * it untyped: their `_bucket`, `_sum` and `_count` samples come out as families of their own.
 */
export class Exposition {
  readonly families: readonly MetricFamily[];
  /** Each family's `# TYPE`, as declared. */
  readonly types = new Map<string, string>();

  constructor(readonly text: string) {
    for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) if (name && type) this.types.set(name, type);
    const histogramsUntyped = text.replace(/^# TYPE (\S+) histogram$/gm, '# TYPE $1 untyped');
    this.families = z.array(FamilySchema).parse(parsePrometheusTextFormat(histogramsUntyped));
  }

  family(name: string): MetricFamily {
    const family = this.families.find((candidate) => candidate.name === name);
    if (!family) throw new Error(`no metric ${name} in the scrape`);
    return family;
  }

  /**
   * The samples of `name` whose labels include `labels`, from every family of that name: an untyped
   * histogram's `_bucket`, `_sum` and `_count` come out as one family per series.
   */
  samples(name: string, labels: Record<string, string> = {}): Sample[] {
    this.family(name);
    return this.families
      .filter((family) => family.name === name)
      .flatMap((family) => family.metrics)
      .filter((sample) => Object.entries(labels).every(([key, value]) => sample.labels?.[key] === value));
  }

  /** The sum of the values of `name`'s samples that have `labels`; 0 when none has. */
  value(name: string, labels: Record<string, string> = {}): number {
    return this.samples(name, labels).reduce((total, sample) => total + Number(sample.value), 0);
  }

  /** Each sample of `name` as `{labels…, value}`, for comparing a whole family at once. */
  table(name: string, labels: Record<string, string> = {}): Array<Record<string, string | number>> {
    return this.samples(name, labels).map((sample) => ({ ...sample.labels, value: Number(sample.value) }));
  }

  /** Observations, their sum and the cumulative count per bucket (`le`) of the histogram series having `labels`, added up. */
  histogram(name: string, labels: Record<string, string> = {}): { count: number; sum: number; buckets: Record<string, number> } {
    const buckets: Record<string, number> = {};
    for (const sample of this.samples(`${name}_bucket`, labels)) {
      const bound = sample.labels?.['le'] ?? '';
      buckets[bound] = (buckets[bound] ?? 0) + Number(sample.value);
    }
    return { count: this.value(`${name}_count`, labels), sum: this.value(`${name}_sum`, labels), buckets };
  }

  /** Every sample name in the text (`relay_request_duration_seconds_bucket` included), as PromQL sees them. */
  sampleNames(): Set<string> {
    const names = new Set<string>();
    for (const line of this.text.split('\n')) {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]/.exec(line);
      if (match?.[1]) names.add(match[1]);
    }
    return names;
  }
}
