import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The workspace root, where `dist/` and `tmp/` are. */
export const WORKSPACE_ROOT = path.resolve(__dirname, '../../..');

/** The production bundle `npm run build` writes (the console is served from dist/apps/console beside it). */
const RELAY_BUNDLE = path.join(WORKSPACE_ROOT, 'dist/apps/server/main.js');
const CONSOLE_INDEX = path.join(WORKSPACE_ROOT, 'dist/apps/console/index.html');

/** 32 characters, as an operator's RELAY_ADMIN_KEY would be. */
export const E2E_ADMIN_KEY = 'e2e-admin-key-0123456789abcdefgh';
export const E2E_METRICS_TOKEN = 'e2e-metrics-token-0123456789abcd';

export interface RelayProcess {
  /** `http://127.0.0.1:<port>` */
  url: string;
  adminKey: string;
  metricsToken: string;
  /** Everything the process wrote so far (JSON log lines), for a failure message. */
  output(): string;
  /** Kills the process and removes its data directory. */
  close(): Promise<void>;
}

function requireBuilt(file: string): void {
  if (!fs.existsSync(file)) {
    throw new Error(`${path.relative(WORKSPACE_ROOT, file)} is missing: run \`npx nx run-many -t build -p server console\` (nx run console-e2e:test does).`);
  }
}

/**
 * `node dist/apps/server/main.js` as an operator runs it: its own process on 127.0.0.1, port 0,
 * SQLite in a fresh data directory, none of this machine's DATABASE_URL / REDIS_URL (`env`: more
 * settings, as an operator's environment would add them).
 */
export async function startRelayProcess(options: { startTimeoutMs?: number; env?: Record<string, string> } = {}): Promise<RelayProcess> {
  const startTimeoutMs = options.startTimeoutMs ?? 30_000;
  requireBuilt(RELAY_BUNDLE);
  requireBuilt(CONSOLE_INDEX);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-e2e-relay-'));
  const child = spawn(process.execPath, [RELAY_BUNDLE], {
    cwd: WORKSPACE_ROOT,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      RELAY_DATA_DIR: dataDir,
      RELAY_ADMIN_KEY: E2E_ADMIN_KEY,
      RELAY_METRICS_TOKEN: E2E_METRICS_TOKEN,
      RELAY_LOG_LEVEL: 'info',
      DATABASE_URL: '',
      REDIS_URL: '',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(String(code ?? signal))));

  const close = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`relay did not start in ${startTimeoutMs} ms:\n${output}`)), startTimeoutMs);
      const look = (): void => {
        const match = /listening on http:\/\/[^:]+:(\d+)/.exec(output);
        if (!match) return;
        clearTimeout(timer);
        child.stdout.off('data', look);
        resolve(`http://127.0.0.1:${match[1]}`);
      };
      child.stdout.on('data', look);
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`relay exited (${code}) before listening:\n${output}`));
      });
    });
    return { url, adminKey: E2E_ADMIN_KEY, metricsToken: E2E_METRICS_TOKEN, output: () => output, close };
  } catch (error) {
    await close();
    throw error;
  }
}
