import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const WORKSPACE_ROOT = path.resolve(__dirname, '../../../..');

const bundles = new Map<string, string>();

/**
 * A workspace entry point bundled with the script `npm run build` uses, once per test process,
 * into the ignored `tmp/` where its external packages resolve from `node_modules`. The fuzz tool
 * reaches the relay only as a program, never by importing the app's source.
 */
export function workspaceBundle(entry: string): string {
  const built = bundles.get(entry);
  if (built && fs.existsSync(built)) return built;
  fs.mkdirSync(path.join(WORKSPACE_ROOT, 'tmp'), { recursive: true });
  const outDir = fs.mkdtempSync(path.join(WORKSPACE_ROOT, 'tmp', 'fuzz-bundle-'));
  const outfile = path.join(outDir, 'main.js');
  execFileSync(process.execPath, ['tools/scripts/build-node-bundle.mjs', entry, outfile], { cwd: WORKSPACE_ROOT, stdio: 'pipe' });
  process.once('exit', () => fs.rmSync(outDir, { recursive: true, force: true }));
  bundles.set(entry, outfile);
  return outfile;
}

export interface SpawnedRelay {
  /** `http://127.0.0.1:<port>` */
  url: string;
  child: ChildProcess;
  adminKey: string;
  /** Everything the process wrote so far (JSON log lines). */
  output(): string;
  /** SIGKILL if still running; removes the data directory. */
  close(): Promise<void>;
}

const ADMIN_KEY = 'sk-admin-fuzz-0123456789abcdef0123456789abcdef';
const SECRET_KEY = 'fuzz-secret-key-of-the-spawned-relay-0123456789';

/** The relay's production bundle in its own process on 127.0.0.1, port 0, SQLite in a temporary directory. */
export async function spawnRelayBundle(): Promise<SpawnedRelay> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chat-relay-fuzz-'));
  const child = spawn(process.execPath, [workspaceBundle('apps/server/src/main.ts')], {
    cwd: WORKSPACE_ROOT,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      RELAY_DATA_DIR: dataDir,
      RELAY_ADMIN_KEY: ADMIN_KEY,
      RELAY_SECRET_KEY: SECRET_KEY,
      RELAY_LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`relay did not start in time:\n${output}`)), 15_000);
    const look = () => {
      const match = /listening on http:\/\/[^:]+:(\d+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout?.off('data', look);
      resolve(`http://127.0.0.1:${match[1]}`);
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
    adminKey: ADMIN_KEY,
    output: () => output,
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
