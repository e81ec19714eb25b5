import { selectLoadCases, type LoadCase } from './load-cases';
import type { Mode } from './report';

/** The modes `--profile` takes: the chat ones, which the Express proxy routes too. */
const profileModes: readonly Mode[] = ['non-stream', 'stream', '64k'];
/** Every mode the table has a row of. */
const allModes: readonly Mode[] = [...profileModes, 'embeddings'];

export interface BenchOptions {
  quick: boolean;
  json: boolean;
  peers: boolean;
  /** Seconds of measured load per row. */
  durationSeconds: number;
  /**
   * Seconds of unmeasured load before each row's measured window. Three by default: the relay's
   * JIT takes ~3 s of a new kind of request (its first streams after the non-stream rows) to reach
   * its steady cost, where the Express proxy's stream is one `pipe()` between Node's own streams,
   * little code of its own (docs/PERFORMANCE.md, issue 30, tenth pass); one second measured part of
   * that warm-up as the relay's cost. Part of it is the host's own wake-up after idle seconds, which
   * every process here shows (eleventh pass).
   */
  warmupSeconds: number;
  /**
   * Windows each row's measured time is cut into, taken in turn across the targets (measure-row.ts):
   * five by default, so a stretch of a noisy host spreads over every target instead of landing on
   * one (docs/PERFORMANCE.md, issue 30, eleventh pass); one is the sequential measurement.
   */
  slices: number;
  /** Seconds of each workload every target serves before the first row (measure-row.ts, prewarm); 0 skips it. */
  prewarmSeconds: number;
  /** Only these rows of the table, in the table's order (`--rows`); all of them when undefined. */
  rows: readonly LoadCase[] | undefined;
  /** Sequential stream requests of the time-to-first-byte probe, per target. */
  ttfbRequests: number;
  /** Concurrent slow streams through a fresh relay, then a fresh Express proxy; 0 skips the check. */
  slowStreams: number;
  /** Directory for the relay's `--cpu-prof` profile, when asked for. */
  cpuProfileDir: string | undefined;
  /** Only this row against the Express proxy and the relay, both under --cpu-prof, then self time by module. */
  profileRow: { mode: Mode; connections: number } | undefined;
  /** Only summarise this `.cpuprofile` (or the newest in this directory); no benchmark run. */
  summarizeProfile: string | undefined;
  /** Run the soak (mixed load on the relay, memory before, at peak, after, at idle) instead of the table. */
  soak: boolean;
  soakSeconds: number;
  /** Seconds left alone after the soak before the idle figures. */
  soakIdleSeconds: number;
  /** Concurrent callers during the soak. */
  soakConnections: number;
  /** Also measure the relay on PostgreSQL + Redis (a schema and key prefix of its own), beside the SQLite one. */
  sharedStores: boolean;
  /** The large-bodies check (~18 MB bodies relayed and refused, /healthz meanwhile): 'with' the table, 'only' it, or 'skip'. */
  largeBodies: 'with' | 'only' | 'skip';
}

export const usage = `usage: npm run bench -- [options]
  --quick              short loads (1 s after 0.5 s warm-up), 200 slow streams: a smoke test (~1 min)
  --json               print the report as JSON on stdout (progress stays on stderr)
  --peers              also install @portkey-ai/gateway into a temp folder and measure it
  --duration=<s>       seconds of measured load per row (default 5, quick 1)
  --warmup=<s>         seconds of unmeasured load before each row (default 3, quick 0.5)
  --prewarm=<s>        seconds of each workload every target serves before the first row
                       (default 3, quick 0; 0 = none, the first row meets cold processes)
  --slices=<n>         each row's measured time in n windows taken in turn across the targets
                       (default 5, quick 1; 1 = each target's whole load one after the other)
  --rows=<mode>:<connections>[,…]
                       only these rows of the table (e.g. --rows=stream:1,stream:32); the checks after
                       it (TTFB, slow streams, large bodies) still run unless left out
  --slow-streams=<n>   concurrent slow streams (default 2000, quick 200; 0 = skip) through a fresh relay,
                       then through a fresh Express proxy as its reference
  --cpu-prof[=<dir>]   run the relay with --cpu-prof, profile written to <dir> (default tmp/bench-profiles),
                       summarised on stderr after the run (and as "profile" in --json)
  --profile=<mode>:<connections>
                       only that row (mode non-stream, stream or 64k) against the Express proxy and the
                       relay, each under --cpu-prof (into <dir>/express and <dir>/relay of --cpu-prof's
                       <dir>); prints per module CPU µs per request and % of busy time side by side
                       (with --json, as JSON)
  --summarize-profile=<file|dir>
                       only summarise an existing .cpuprofile (the newest in <dir>), no run;
                       with --json, as JSON
  --soak               instead of the table: mixed load on the relay's bundle (non-stream, stream,
                       aborted streams, caller errors), RSS and heap before, at peak, after and at idle
  --soak-seconds=<s>   seconds of soak load (default 120, quick 20)
  --soak-idle-seconds=<s>
                       seconds left idle after the load before the idle figures (default 15, quick 5)
  --soak-connections=<n>
                       concurrent callers during the soak (default 16)
  --shared-stores      also run the relay on PostgreSQL + Redis, as several instances do, and report it as
                       "relay (PostgreSQL + Redis)" beside the SQLite relay in every block; needs
                       BENCH_DATABASE_URL or DATABASE_URL, and BENCH_REDIS_URL or REDIS_URL (a fresh schema
                       and key prefix are created and removed)
  --large-bodies=only  only the large-bodies check (~18 MB bodies relayed bridged and refused by a fresh relay,
                       /healthz latency and the relay's event-loop delay meanwhile); --large-bodies=skip leaves it out`;

function positiveNumber(name: string, raw: string, allowZero: boolean): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new Error(`${name}=${raw}: expected a ${allowZero ? 'non-negative' : 'positive'} number`);
  }
  return value;
}

/** `stream:32` → the stream row at 32 connections. */
function parseProfileRow(arg: string, value: string): { mode: Mode; connections: number } {
  const [mode, connections] = value.split(':');
  const found = profileModes.find((candidate) => candidate === mode);
  const count = Number(connections);
  if (!found || !Number.isInteger(count) || count < 1) {
    throw new Error(`${arg}: expected --profile=<mode>:<connections>, mode one of ${profileModes.join(', ')}, e.g. --profile=stream:32`);
  }
  return { mode: found, connections: count };
}

/** `stream:1,stream:32` → those rows; a mode or count that cannot be a row is refused naming it. */
function parseRows(arg: string, value: string): LoadCase[] {
  if (value === '') throw new Error(`${arg}: expected --rows=<mode>:<connections>[,…], e.g. --rows=stream:1,stream:32`);
  return value.split(',').map((row) => {
    const [mode, connections] = row.split(':');
    const count = Number(connections);
    const found = allModes.find((candidate) => candidate === mode);
    if (!found || !Number.isInteger(count) || count < 1) throw new Error(`${arg}: ${row} is not <mode>:<connections>, mode one of ${allModes.join(', ')}`);
    return { mode: found, connections: count };
  });
}

/** Parses the command line; throws with a message naming the bad argument. */
export function parseBenchOptions(args: readonly string[]): BenchOptions {
  const quick = args.includes('--quick');
  const options: BenchOptions = {
    quick,
    json: false,
    peers: false,
    durationSeconds: quick ? 1 : 5,
    warmupSeconds: quick ? 0.5 : 3,
    slices: quick ? 1 : 5,
    prewarmSeconds: quick ? 0 : 3,
    rows: undefined,
    ttfbRequests: quick ? 50 : 200,
    slowStreams: quick ? 200 : 2000,
    cpuProfileDir: undefined,
    profileRow: undefined,
    summarizeProfile: undefined,
    soak: false,
    soakSeconds: quick ? 20 : 120,
    soakIdleSeconds: quick ? 5 : 15,
    soakConnections: 16,
    sharedStores: false,
    largeBodies: 'with',
  };
  for (const arg of args) {
    const [name = '', value] = arg.split(/=(.*)/s, 2);
    switch (name) {
      case '--quick':
        break;
      case '--json':
        options.json = true;
        break;
      case '--peers':
        options.peers = true;
        break;
      case '--duration':
        options.durationSeconds = positiveNumber(name, value ?? '', false);
        break;
      case '--warmup':
        options.warmupSeconds = positiveNumber(name, value ?? '', true);
        break;
      case '--prewarm':
        options.prewarmSeconds = positiveNumber(name, value ?? '', true);
        break;
      case '--slices': {
        const slices = positiveNumber(name, value ?? '', false);
        if (!Number.isInteger(slices)) throw new Error(`${arg}: expected a whole number of windows`);
        options.slices = slices;
        break;
      }
      case '--rows':
        options.rows = selectLoadCases(parseRows(arg, value ?? ''));
        break;
      case '--slow-streams':
        options.slowStreams = Math.floor(positiveNumber(name, value ?? '', true));
        break;
      case '--cpu-prof':
        options.cpuProfileDir = value || 'tmp/bench-profiles';
        break;
      case '--profile':
        options.profileRow = parseProfileRow(arg, value ?? '');
        break;
      case '--summarize-profile':
        if (!value) throw new Error('--summarize-profile=<file|dir>: name a .cpuprofile or a directory');
        options.summarizeProfile = value;
        break;
      case '--soak':
        options.soak = true;
        break;
      case '--soak-seconds':
        options.soakSeconds = positiveNumber(name, value ?? '', false);
        break;
      case '--soak-idle-seconds':
        options.soakIdleSeconds = positiveNumber(name, value ?? '', true);
        break;
      case '--soak-connections':
        options.soakConnections = Math.max(1, Math.floor(positiveNumber(name, value ?? '', false)));
        break;
      case '--shared-stores':
        if (value !== undefined) throw new Error(`${arg}: --shared-stores takes no value (the stores come from the environment)`);
        options.sharedStores = true;
        break;
      case '--large-bodies':
        if (value !== 'only' && value !== 'skip') throw new Error(`${arg}: expected --large-bodies=only or --large-bodies=skip`);
        options.largeBodies = value;
        break;
      default:
        throw new Error(`unknown argument ${arg}`);
    }
  }
  if (options.profileRow && (options.soak || options.sharedStores || options.summarizeProfile)) {
    throw new Error('--profile runs one row on its own: not with --soak, --shared-stores or --summarize-profile');
  }
  if (options.sharedStores && options.soak) throw new Error('--shared-stores applies to the table, not to --soak');
  return options;
}
