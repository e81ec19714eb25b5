import v8 from 'node:v8';

/**
 * How far V8 lets the old generation grow past what the last full GC left alive, in percent.
 * Its own factor goes up to 4× while GCs look cheap: a relay with ~30 MB live reached 200–230 MB
 * under `stream · 32`, nearly all of it garbage promoted out of finished requests. At 2× the peak
 * was 164–171 MB, for ~3–6 µs more mark-compact per request (1.5×: 150–166 MB for ~13 µs; issue 30).
 */
export const HEAP_GROWING_PERCENT = 100;

const FLAG = /^--heap[-_]growing[-_]percent(=|$)/;

/**
 * Caps the old generation's growth between full GCs — unless the operator chose a value
 * (`node --heap-growing-percent=…` or NODE_OPTIONS), which stands. V8 reads the flag at every
 * full GC, so setting it once at start is enough. True when this call set it.
 */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv, nodeOptions: string = process.env['NODE_OPTIONS'] ?? ''): boolean {
  const chosen = [...execArgv, ...nodeOptions.split(/\s+/)].some((arg) => FLAG.test(arg));
  if (chosen) return false;
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
