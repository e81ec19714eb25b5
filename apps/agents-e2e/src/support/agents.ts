import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { agentBin, agentsDir, type AgentName } from './agent-install';

/** Seeded where a CLI keeps its per-install id, so nothing real is made up or sent. */
const PLACEHOLDER_INSTALLATION_ID = '00000000-0000-4000-8000-000000000000';

/** The relay as a CLI is pointed at it. */
export interface RelayTarget {
  url: string;
  token: string;
}

/** One CLI run's outcome. */
export interface AgentRun {
  code: number | string | null;
  /** stdout and stderr as the CLI wrote them (the token redacted). */
  output: string;
  ms: number;
}

/** A coding agent's CLI, as a user sets it up to talk to the relay and runs it without a terminal. */
interface AgentDriver {
  /** Writes the CLI's settings into the scratch HOME (and work directory): the environment to run it with. */
  configure(home: string, work: string, relay: RelayTarget): Record<string, string>;
  /** The arguments of a turn: the first of the session, or one continuing it. */
  args(prompt: string, continuing: boolean): string[];
}

/** The model opencode is configured with (any name: the relay's channel maps it). */
export const OPENCODE_MODEL = 'opencode-agent-model';

/**
 * What the suite runs: each CLI as its users set it up, and Claude Code also in its Bedrock and
 * Vertex modes (the cloud's auth skipped, the relay in the cloud's place; docs/guides/clients.md).
 */
export const AGENT_MODES = ['claude', 'claude-bedrock', 'claude-vertex', 'codex', 'gemini', 'opencode'] as const;
export type AgentMode = (typeof AGENT_MODES)[number];

/** The CLI a mode runs. */
const cliOf = (mode: AgentMode): AgentName => (mode === 'claude-bedrock' || mode === 'claude-vertex' ? 'claude' : mode);

/** Claude Code in any mode: the device id, telemetry and updates as every mode has them. */
function claudeCode(home: string, mode: Record<string, string>): Record<string, string> {
  // Claude Code's device id is the userID of ~/.claude.json: a placeholder, never a generated one.
  fs.writeFileSync(path.join(home, '.claude.json'), `${JSON.stringify({ userID: '0'.repeat(64) }, null, 2)}\n`);
  return { ...mode, DISABLE_TELEMETRY: '1', DISABLE_ERROR_REPORTING: '1', DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' };
}

const claudeArgs = (prompt: string, continuing: boolean): string[] => ['-p', prompt, '--allowedTools', 'Bash', ...(continuing ? ['--continue'] : [])];

const drivers: Record<AgentMode, AgentDriver> = {
  claude: {
    configure: (home, _work, relay) => claudeCode(home, { ANTHROPIC_BASE_URL: relay.url, ANTHROPIC_API_KEY: relay.token }),
    args: claudeArgs,
  },
  // Bedrock mode: the relay's token as a Bedrock API key, which Claude Code sends as `Authorization: Bearer`.
  'claude-bedrock': {
    configure: (home, _work, relay) =>
      claudeCode(home, {
        CLAUDE_CODE_USE_BEDROCK: '1',
        ANTHROPIC_BEDROCK_BASE_URL: relay.url,
        CLAUDE_CODE_SKIP_BEDROCK_AUTH: '1',
        AWS_REGION: 'us-east-1',
        AWS_BEARER_TOKEN_BEDROCK: relay.token,
      }),
    args: claudeArgs,
  },
  // Vertex mode: with Vertex's auth skipped, Claude Code sends the Authorization of ANTHROPIC_CUSTOM_HEADERS.
  'claude-vertex': {
    configure: (home, _work, relay) =>
      claudeCode(home, {
        CLAUDE_CODE_USE_VERTEX: '1',
        ANTHROPIC_VERTEX_BASE_URL: `${relay.url}/v1`,
        CLAUDE_CODE_SKIP_VERTEX_AUTH: '1',
        ANTHROPIC_VERTEX_PROJECT_ID: 'chat-relay',
        CLOUD_ML_REGION: 'us-east5',
        ANTHROPIC_CUSTOM_HEADERS: `Authorization: Bearer ${relay.token}`,
      }),
    args: claudeArgs,
  },
  codex: {
    configure: (home, _work, relay) => {
      const codexHome = path.join(home, '.codex');
      fs.mkdirSync(codexHome, { recursive: true });
      fs.writeFileSync(path.join(codexHome, 'installation_id'), PLACEHOLDER_INSTALLATION_ID);
      const config = [
        'model_provider = "relay"',
        '',
        '[model_providers.relay]',
        'name = "chat-relay"',
        `base_url = "${relay.url}/v1"`,
        'env_key = "RELAY_API_KEY"',
        'wire_api = "responses"',
        // Responses over WebSocket, as OpenAI's own provider does by default (issue 29).
        'supports_websockets = true',
        '',
      ];
      fs.writeFileSync(path.join(codexHome, 'config.toml'), config.join('\n'));
      return { CODEX_HOME: codexHome, RELAY_API_KEY: relay.token };
    },
    args: (prompt, continuing) => [
      'exec',
      '--skip-git-repo-check',
      '--dangerously-bypass-approvals-and-sandbox',
      ...(continuing ? ['resume', '--last'] : []),
      prompt,
    ],
  },
  gemini: {
    configure: (home, _work, relay) => {
      const geminiHome = path.join(home, '.gemini');
      fs.mkdirSync(geminiHome, { recursive: true });
      fs.writeFileSync(path.join(geminiHome, 'installation_id'), PLACEHOLDER_INSTALLATION_ID);
      // 0.61 reads GOOGLE_GEMINI_BASE_URL as the "gateway" auth type, which non-interactive runs
      // refuse; selecting the API-key type keeps the base URL.
      const settings = { security: { auth: { selectedType: 'gemini-api-key' } }, privacy: { usageStatisticsEnabled: false } };
      fs.writeFileSync(path.join(geminiHome, 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
      return { GOOGLE_GEMINI_BASE_URL: relay.url, GEMINI_API_KEY: relay.token, GEMINI_TELEMETRY_ENABLED: 'false', GEMINI_CLI_TRUST_WORKSPACE: 'true' };
    },
    args: (prompt, continuing) => ['-p', prompt, '--yolo', ...(continuing ? ['--resume', 'latest'] : [])],
  },
  opencode: {
    configure: (_home, work, relay) => {
      const config = {
        $schema: 'https://opencode.ai/config.json',
        provider: {
          relay: {
            npm: '@ai-sdk/openai-compatible',
            name: 'chat-relay',
            options: { baseURL: `${relay.url}/v1`, apiKey: relay.token },
            // A model opencode does not know takes 32000 output tokens by default, more than
            // several upstream models allow (gpt-4o: 16384): its limits are part of the setup.
            models: { [OPENCODE_MODEL]: { name: 'through the relay', tool_call: true, limit: { context: 128_000, output: 8_192 } } },
          },
        },
        model: `relay/${OPENCODE_MODEL}`,
        permission: { bash: 'allow', edit: 'allow' },
        autoupdate: false,
        share: 'disabled',
      };
      fs.writeFileSync(path.join(work, 'opencode.json'), `${JSON.stringify(config, null, 2)}\n`);
      // opencode installs its provider package on first use: kept beside the CLIs, not per run.
      return {
        XDG_CACHE_HOME: path.join(agentsDir(), 'opencode-cache'),
        OPENCODE_DISABLE_AUTOUPDATE: '1',
        OPENCODE_DISABLE_MODELS_FETCH: '1',
        OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
        OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
        OPENCODE_DISABLE_SHARE: '1',
        OPENCODE_DISABLE_CLAUDE_CODE: '1',
      };
    },
    args: (prompt, continuing) => ['run', ...(continuing ? ['--continue'] : []), prompt],
  },
};

/** One agent's session: a scratch HOME and work directory, the CLI's settings pointing at the relay. */
export class AgentSession {
  private readonly home = fs.mkdtempSync(path.join(os.tmpdir(), 'agents-e2e-home-'));
  readonly work = fs.mkdtempSync(path.join(os.tmpdir(), 'agents-e2e-work-'));
  private readonly env: Record<string, string>;
  private turns = 0;

  constructor(
    readonly agent: AgentMode,
    private readonly relay: RelayTarget,
  ) {
    const base: Record<string, string> = {
      PATH: process.env['PATH'] ?? '',
      HOME: this.home,
      USERPROFILE: this.home,
      XDG_CONFIG_HOME: path.join(this.home, '.config'),
      XDG_DATA_HOME: path.join(this.home, '.local/share'),
      XDG_STATE_HOME: path.join(this.home, '.local/state'),
      NO_COLOR: '1',
      CI: '1',
      TERM: 'dumb',
    };
    this.env = { ...base, ...drivers[agent].configure(this.home, this.work, relay) };
  }

  /** Runs one turn (the first, then continuing the session), bounded in time. */
  async turn(prompt: string, timeoutMs = 90_000): Promise<AgentRun> {
    const args = drivers[this.agent].args(prompt, this.turns > 0);
    this.turns += 1;
    const started = performance.now();
    const child = spawn(agentBin(cliOf(this.agent)), args, { cwd: this.work, env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const code = await new Promise<number | string | null>((resolve) => child.once('close', (exit, signal) => resolve(exit ?? signal)));
    clearTimeout(timer);
    return { code, output: output.split(this.relay.token).join('<token>'), ms: Math.round(performance.now() - started) };
  }

  close(): void {
    fs.rmSync(this.home, { recursive: true, force: true });
    fs.rmSync(this.work, { recursive: true, force: true });
  }
}
