// The package ships no types: the shape its parser returns, as far as the suite reads it.
declare module 'parse-prometheus-text-format' {
  interface PrometheusSample {
    /** Counters, gauges and untyped samples. */
    value?: string;
    labels?: Record<string, string>;
    /** Histograms: upper bound → cumulative count; summaries: quantile → value. */
    buckets?: Record<string, string>;
    quantiles?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  interface PrometheusFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: PrometheusSample[];
  }
  function parsePrometheusTextFormat(text: string): PrometheusFamily[];
  export = parsePrometheusTextFormat;
}
