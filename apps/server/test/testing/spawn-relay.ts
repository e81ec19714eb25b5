import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TEST_ADMIN_KEY } from './test-relay';

const WORKSPACE_ROOT = path.resolve(__dirname, '../../../..');

let bundle: string | undefined;

/**
 * The production bundle of `main.ts`, built once per test process with the same script
 * `npm run build` uses (esbuild, under a second) into the workspace's ignored `tmp/`, where its
 * external packages resolve from `node_modules` as they do for `dist/`.
 */
export function relayBundle(): string {
  if (bundle && fs.existsSync(bundle)) return bundle;
  fs.mkdirSync(path.join(WORKSPACE_ROOT, 'tmp'), { recursive: true });
  const outDir = fs.mkdtempSync(path.join(WORKSPACE_ROOT, 'tmp', 'test-bundle-'));
  const outfile = path.join(outDir, 'main.js');
  execFileSync(process.execPath, ['tools/scripts/build-node-bundle.mjs', 'apps/server/src/main.ts', outfile], {
    cwd: WORKSPACE_ROOT,
    stdio: 'pipe',
  });
  process.once('exit', () => fs.rmSync(outDir, { recursive: true, force: true }));
  bundle = outfile;
  return outfile;
}

export interface SpawnedRelay {
  /** `http://127.0.0.1:<port>` */
  url: string;
  child: ChildProcess;
  dataDir: string;
  adminKey: string;
  /** Everything the process wrote to stdout and stderr so far (JSON log lines). */
  output(): string;
  /** Resolves with the exit code (or signal name) once the process has exited. */
  exited: Promise<number | string>;
  /** SIGKILL if still running, and removes the data directory unless `keepData`. */
  close(options?: { keepData?: boolean }): Promise<void>;
}

/** The secret every spawned relay seals channel keys with: instances sharing a database must share it. */
export const TEST_SECRET_KEY = 'test-secret-key-of-the-spawned-relays-0123456789';

export interface SpawnRelayOptions {
  /** Reuse a data directory (a restart); a new temporary one otherwise. */
  dataDir?: string;
  env?: Record<string, string>;
  /** How long to wait for the "listening" line. */
  startTimeoutMs?: number;
}

/**
 * The real relay as `npm start` runs it — its own process on 127.0.0.1, port 0 — for the tests
 * that must see it crash, freeze, be killed or drain on SIGTERM.
 */
export async function spawnRelay(options: SpawnRelayOptions = {}): Promise<SpawnedRelay> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'chat-relay-proc-'));
  const child = spawn(process.execPath, [relayBundle()], {
    cwd: WORKSPACE_ROOT,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      RELAY_DATA_DIR: dataDir,
      RELAY_ADMIN_KEY: TEST_ADMIN_KEY,
      RELAY_SECRET_KEY: TEST_SECRET_KEY,
      RELAY_LOG_LEVEL: 'info',
      // The specs' made-up models are served for nothing unless a spec asks for the default (refuse).
      RELAY_UNPRICED_MODELS: 'free',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`relay did not start in time:\n${output}`)), options.startTimeoutMs ?? 15_000);
    const look = () => {
      const match = /listening on http:\/\/[^:]+:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stdout?.off('data', look);
        resolve(`http://127.0.0.1:${match[1]}`);
      }
    };
    child.stdout?.on('data', look);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`relay exited (${code}) before listening:\n${output}`));
    });
  });

  return {
    url,
    child,
    dataDir,
    adminKey: TEST_ADMIN_KEY,
    output: () => output,
    exited,
    close: async ({ keepData = false } = {}) => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
