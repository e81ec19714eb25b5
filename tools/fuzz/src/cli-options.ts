import { DEFAULT_SEED } from './fuzz-options';
import type { FuzzOptions } from './run-fuzz';

/** The simulator's key when the CLI starts its own; also what a running upstream-sim accepts by default (any key). */
export const DEFAULT_SIM_KEY = 'sk-sim-key';

export interface FuzzCliOptions {
  /** The relay: `http://host:port`. */
  url: string;
  adminKey: string;
  /** A running upstream-sim's origin the relay can reach; unset: one is started here on 127.0.0.1. */
  simUrl: string | undefined;
  simKey: string;
  fuzz: FuzzOptions;
  help: boolean;
}

export const usage = `usage: node dist/tools/fuzz/main.js --url=<http://host:port> [options]
  (or npm run fuzz -- --url=… [options])

Seeds channels to the upstream simulator, accounts, tokens and assistants through the relay's admin
API, then sends generated hostile requests on /v1 and /api and checks every answer: below 500 unless
the case asked the upstream to fail, errors and streams in the caller's dialect, no foreign access,
Responses usage counted whole; then that the relay still answers /healthz and a chat. Aim it at a
throwaway relay: what it seeds stays, and hostile writes change the spare resources it creates.

  --url=<url>              the relay, plain http:// (the requests are written to the socket byte by byte)
  --admin-key=<key>        the relay's admin key (default: $RELAY_ADMIN_KEY)
  --sim-url=<origin>       a running upstream-sim the relay can reach, e.g. http://sim:4010
                           (default: one started here on 127.0.0.1, port 0 — for a relay on this machine)
  --sim-key=<key>          the key the channels send to the simulator (default ${DEFAULT_SIM_KEY})
  --runs=<n>               generated requests (default 10000)
  --seed=<n|random>        the generators' seed (default ${DEFAULT_SEED}); a failure report names it
  --only=<i,j,…>           replay only these case indices of the seed (from a failure report)
  --concurrency=<n>        requests in flight (default 12)
  --timeout-ms=<n>         per request: a hung request is a finding (default 15000)
  --max-string-bytes=<n>   longest generated string (default 50000)

Exit 0: no failures and the relay still serving; 1: failures (reported on stderr); 2: a bad argument.`;

function positiveInteger(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name}=${raw}: expected a positive integer`);
  return value;
}

/** Parses `--name=value` arguments; throws with a message naming the bad one. */
export function parseFuzzCliOptions(args: readonly string[], env: Record<string, string | undefined> = {}): FuzzCliOptions {
  const values = new Map<string, string>();
  let help = false;
  for (const arg of args) {
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    const match = /^--([a-z-]+)=(.*)$/s.exec(arg);
    if (!match) throw new Error(`${arg}: expected --name=value`);
    values.set(match[1] as string, match[2] as string);
  }
  const known = ['url', 'admin-key', 'sim-url', 'sim-key', 'runs', 'seed', 'only', 'concurrency', 'timeout-ms', 'max-string-bytes'];
  for (const name of values.keys()) if (!known.includes(name)) throw new Error(`--${name}: unknown option`);

  const url = values.get('url') ?? '';
  const adminKey = values.get('admin-key') ?? env['RELAY_ADMIN_KEY'] ?? '';
  if (!help && url === '') throw new Error('--url is required');
  if (!help && adminKey === '') throw new Error('--admin-key (or RELAY_ADMIN_KEY) is required');
  if (url !== '' && !/^http:\/\/[^/]+\/?$/.test(url)) throw new Error(`--url=${url}: expected http://host:port`);

  const seedText = values.get('seed');
  const seed = seedText === undefined ? DEFAULT_SEED : seedText === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(seedText);
  if (!Number.isInteger(seed) || seed < 0) throw new Error(`--seed=${seedText}: expected a non-negative integer or random`);
  const onlyText = values.get('only');
  const only = onlyText
    ?.split(',')
    .filter(Boolean)
    .map((index) => {
      const value = Number(index);
      if (!Number.isInteger(value) || value < 0) throw new Error(`--only=${onlyText}: expected case indices`);
      return value;
    })
    .sort((left, right) => left - right);
  const number = (name: string, fallback: number) => {
    const raw = values.get(name);
    return raw === undefined ? fallback : positiveInteger(name, raw);
  };

  return {
    url: url.replace(/\/$/, ''),
    adminKey,
    simUrl: values.get('sim-url')?.replace(/\/$/, ''),
    simKey: values.get('sim-key') ?? DEFAULT_SIM_KEY,
    fuzz: {
      seed,
      runs: number('runs', 10_000),
      concurrency: number('concurrency', 12),
      timeoutMs: number('timeout-ms', 15_000),
      maxStringBytes: number('max-string-bytes', 50_000),
      ...(only && only.length > 0 ? { only } : {}),
    },
    help,
  };
}
