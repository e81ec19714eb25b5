import v8 from 'node:v8';

/**
 * How far V8 lets the old generation grow past what the last full GC left alive, in percent.
 * Its own factor goes up to 4× while GCs look cheap: a relay with ~30 MB live reached 200–230 MB
 * under `stream · 32`, nearly all of it garbage promoted out of finished requests. At 2× the peak
 * was 164–171 MB, but under 32 callers of 64 KiB bodies — whose parsed conversations outlive a
 * scavenge and are promoted — it ran a mark-compact every ~0.3 s (Express's proxy, at V8's factor,
 * every ~1.2 s), and its CPU a request read 20–26 % above the proxy's once the simulator stopped
 * holding that row back. At 2.5× the same row reads level with the proxy's for a peak of 175–177
 * MiB, and a slow stream no heavier (issue 30, fourteenth pass).
 */
export const HEAP_GROWING_PERCENT = 150;

const FLAG = /^--heap[-_]growing[-_]percent(=|$)/;
const YOUNG_FLAG = /^--(semi[-_]space[-_]growth[-_]factor|(min|max)[-_]semi[-_]space[-_]size)(=|$)/;
/** V8's own factor, given back once the relay listens. */
const YOUNG_GROWTH_FACTOR = 2;

function operatorChose(flag: RegExp, execArgv: readonly string[], nodeOptions: string): boolean {
  return [...execArgv, ...nodeOptions.split(/\s+/)].some((arg) => flag.test(arg));
}

/**
 * Caps the old generation's growth between full GCs — unless the operator chose a value
 * (`node --heap-growing-percent=…` or NODE_OPTIONS), which stands. V8 reads the flag at every
 * full GC, so setting it once at start is enough. True when this call set it.
 */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv, nodeOptions: string = process.env['NODE_OPTIONS'] ?? ''): boolean {
  if (operatorChose(FLAG, execArgv, nodeOptions)) return false;
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}

/**
 * Keeps the young generation at its first size while the relay starts; the returned function
 * gives V8 its own growth factor back, for the load to come. V8 doubles the young generation
 * each time more than its size has survived scavenges since the last doubling, and the start
 * (modules, ~5,000 zod schemas, the app's routes) is nearly all survivors: it left the young
 * generation at its 16 MB maximum per semispace, ~34 MB committed for a relay that then sat idle
 * (idle RSS 115.3 MB against 97.8 MB held; docs/PERFORMANCE.md, issue 30). V8 reads the factor at every growth, so
 * setting it at run time works; an operator's own choice of young-generation flags stands.
 */
export function holdYoungGeneration(execArgv: readonly string[] = process.execArgv, nodeOptions: string = process.env['NODE_OPTIONS'] ?? ''): () => void {
  if (operatorChose(YOUNG_FLAG, execArgv, nodeOptions)) return () => undefined;
  v8.setFlagsFromString('--semi-space-growth-factor=1');
  let released = false;
  return () => {
    if (released) return;
    released = true;
    v8.setFlagsFromString(`--semi-space-growth-factor=${YOUNG_GROWTH_FACTOR}`);
  };
}
