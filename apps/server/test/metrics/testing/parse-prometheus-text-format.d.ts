/** The package ships no types: its one function, whose output is parsed with zod where it is used. */
declare module 'parse-prometheus-text-format' {
  function parsePrometheusTextFormat(text: string): unknown;
  export = parsePrometheusTextFormat;
}
