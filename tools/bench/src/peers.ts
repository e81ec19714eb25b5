import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Target } from './load-runner';
import { findFreePort, startNode, waitUntilAnswering, type Child } from './processes';

const execFileAsync = promisify(execFile);

export const portkeyVersion = '1.15.2';
const portkeyPackage = '@portkey-ai/gateway';

/**
 * Portkey 1.15.2 accepts any @hono/node-server ^1.3.3, but from 1.14.2 on that adapter keeps the
 * upstream fetch Response's immutable headers, and every Portkey stream fails with
 * `TypeError: immutable` (Portkey-AI/gateway#1389): pinned to the last version before, and the
 * node-ws release that accepts it.
 */
const installManifest = {
  private: true,
  dependencies: { [portkeyPackage]: portkeyVersion },
  overrides: { '@hono/node-server': '1.14.1', '@hono/node-ws': '1.2.0' },
};

/**
 * Installs Portkey's gateway into a folder of the system's temp directory, outside the project
 * (never a dependency of it); a folder already holding this exact install is reused.
 */
async function installPortkey(log: (line: string) => void): Promise<string> {
  const prefix = path.join(os.tmpdir(), `chat-relay-bench-peers-${portkeyVersion}`);
  const packageDir = path.join(prefix, 'node_modules', ...portkeyPackage.split('/'));
  const manifestPath = path.join(prefix, 'package.json');
  const manifest = `${JSON.stringify(installManifest, null, 2)}\n`;
  const installed = existsSync(path.join(packageDir, 'package.json')) && existsSync(manifestPath);
  if (installed && readFileSync(manifestPath, 'utf8') === manifest) return packageDir;
  mkdirSync(prefix, { recursive: true });
  writeFileSync(manifestPath, manifest);
  log(`peers: npm install --prefix ${prefix} (${portkeyPackage}@${portkeyVersion}, @hono/node-server pinned to 1.14.1)`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  await execFileAsync(npm, ['install', '--prefix', prefix, '--no-audit', '--no-fund'], {
    timeout: 180_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  return packageDir;
}

/** The gateway's Node entry point, from its package manifest (`bin`, as `npx @portkey-ai/gateway` runs it). */
function portkeyEntry(packageDir: string): string {
  const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { bin?: unknown };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : 'build/start-server.js';
  return path.join(packageDir, bin);
}

export interface StartedPeer {
  target: Target;
  child: Child;
}

/**
 * Portkey's gateway as an OpenAI-compatible proxy to the simulator: provider `openai` with the
 * simulator as custom host, per request in headers (its documented header-only configuration).
 * Returns the reason instead when it cannot be installed or started.
 */
export async function startPortkey(
  simulatorBaseUrl: string,
  apiKey: string,
  log: (line: string) => void,
): Promise<StartedPeer | { failed: string }> {
  let packageDir: string;
  try {
    packageDir = await installPortkey(log);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { failed: `could not install ${portkeyPackage}@${portkeyVersion}: ${detail.split('\n').slice(0, 6).join(' ')}` };
  }
  try {
    const port = await findFreePort();
    // --headless: no UI; NODE_ENV=production: no dev-only log streaming.
    const child = startNode('portkey', [portkeyEntry(packageDir), `--port=${port}`, '--headless'], { NODE_ENV: 'production' }, packageDir);
    const origin = `http://127.0.0.1:${port}`;
    await waitUntilAnswering(child, `${origin}/`);
    return {
      child,
      target: {
        id: 'portkey',
        url: `${origin}/v1/chat/completions`,
        // Portkey routes /v1/embeddings for the openai provider too; the preflight drops it from that row if not.
        embeddingsUrl: `${origin}/v1/embeddings`,
        headers: {
          authorization: `Bearer ${apiKey}`,
          'x-portkey-provider': 'openai',
          'x-portkey-custom-host': simulatorBaseUrl,
        },
        pid: child.pid,
      },
    };
  } catch (error) {
    return { failed: `could not start ${portkeyPackage}: ${error instanceof Error ? error.message : String(error)}` };
  }
}
