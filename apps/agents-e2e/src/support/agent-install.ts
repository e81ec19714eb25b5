import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The CLIs the suite drives, pinned: the versions whose requests test-fixtures/ records. */
export const AGENT_PACKAGES = {
  claude: { name: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'claude' },
  codex: { name: '@openai/codex', version: '0.171.0', bin: 'codex' },
  gemini: { name: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
  opencode: { name: 'opencode-ai', version: '1.18.33', bin: 'opencode' },
} as const;

export type AgentName = keyof typeof AGENT_PACKAGES;

/**
 * Where the pinned CLIs are installed, outside the repository and kept between runs (they are
 * large: about a gigabyte with their platform binaries): `AGENTS_CACHE_DIR`, else
 * `$XDG_CACHE_HOME/chat-relay-agents` or `~/.cache/chat-relay-agents`, one folder per set of
 * versions.
 */
export function agentsDir(): string {
  const versions = Object.values(AGENT_PACKAGES).map((pkg) => `${pkg.name}@${pkg.version}`);
  const digest = createHash('sha256').update(versions.join('\n')).digest('hex').slice(0, 12);
  const cache = process.env['AGENTS_CACHE_DIR'] ?? path.join(process.env['XDG_CACHE_HOME'] ?? path.join(os.homedir(), '.cache'), 'chat-relay-agents');
  return path.join(cache, digest);
}

/** The path of an installed CLI's executable. */
export const agentBin = (agent: AgentName): string => path.join(agentsDir(), 'node_modules', '.bin', AGENT_PACKAGES[agent].bin);

/**
 * Installs the pinned CLIs from the npm registry when they are not there yet (a first run takes
 * a minute or two; later runs nothing). A half-finished install is redone: the marker file is
 * written last.
 */
export function ensureAgentsInstalled(): void {
  const dir = agentsDir();
  const marker = path.join(dir, 'installed.json');
  const wanted = JSON.stringify(AGENT_PACKAGES);
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === wanted) return;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ name: 'chat-relay-agents', private: true }, null, 2)}\n`);
  const specs = Object.values(AGENT_PACKAGES).map((pkg) => `${pkg.name}@${pkg.version}`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--save-exact', ...specs], {
    cwd: dir,
    stdio: ['ignore', 'inherit', 'inherit'],
    timeout: 600_000,
  });
  fs.writeFileSync(marker, wanted);
}
