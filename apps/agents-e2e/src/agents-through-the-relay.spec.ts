import { AGENT_MODES, AgentSession, type AgentMode, type AgentRun } from './support/agents';
import { CHANNEL_KINDS, useAgentsSuite, type UsageRow } from './support/agents-suite';

/**
 * The real coding-agent CLIs (pinned, installed from npm outside the repository) through the
 * built relay, on each channel type against the simulator (issue 29): a shell-tool round trip,
 * then a second turn of the same session; every model call leaves a usage row with its cost.
 * On each channel type the agents run side by side, each with a token of its own — Claude Code
 * three times: as itself, and in its Bedrock and Vertex modes (issue 31).
 */

/** Every fitting tool name's words are in it: Bash (Claude Code, opencode), run_shell_command (Gemini CLI), exec_command (Codex). */
const FIRST = "Use bash: run shell command exec `printf 'first-turn-%s' 42` and report its output.";
const SECOND = "Once more: run shell command exec bash `printf 'second-turn-%s' 56` and report its output.";
/** What the commands print: text neither prompt contains, so only a run of the tool puts it in the answer. */
const FIRST_OUTPUT = 'first-turn-42';
const SECOND_OUTPUT = 'second-turn-56';

/** Codex's words when its WebSocket transport fails and it retries over HTTP. */
const WEBSOCKET_FALLBACK = /falling back from websockets/i;

const agents = (process.env['AGENTS'] ?? AGENT_MODES.join(',')).split(',') as AgentMode[];
/**
 * Claude Code's Bedrock and Vertex modes differ from its own only on the caller's side (the
 * relay's inbound routes and framing): by default they run on the anthropic channel alone, to keep
 * CI's time; `AGENTS` naming them runs them on every channel type asked for.
 */
const CLOUD_MODES: readonly AgentMode[] = ['claude-bedrock', 'claude-vertex'];
const agentsOn = (kindName: string): AgentMode[] =>
  process.env['AGENTS'] !== undefined || kindName === 'anthropic' ? agents : agents.filter((agent) => !CLOUD_MODES.includes(agent));
const kinds = CHANNEL_KINDS.filter((kind) => (process.env['AGENT_CHANNELS'] ?? 'openai,openai-chat,anthropic,gemini').split(',').includes(kind.name));

/** One agent's session on one channel type: its two turns and the rows its token left. */
interface Outcome {
  first: AgentRun;
  second?: AgentRun;
  rows: UsageRow[];
}

describe('the coding agents through the relay, on every channel type (issue 29)', () => {
  const suite = useAgentsSuite();

  async function session(agent: AgentMode, kindName: string): Promise<Outcome> {
    const { relay, newToken, rowsOf } = suite();
    const token = await newToken(`${agent}-${kindName}`);
    const cli = new AgentSession(agent, { url: relay.url, token: token.key });
    try {
      const first = await cli.turn(FIRST);
      const second = first.code === 0 && first.output.includes(FIRST_OUTPUT) ? await cli.turn(SECOND) : undefined;
      // A row is written as its stream ends, which the CLI may not wait for: give the last one a moment.
      let rows = await rowsOf(token.id);
      for (let waited = 0; rows.filter((row) => row.status === 200).length < 4 && waited < 3_000; waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        rows = await rowsOf(token.id);
      }
      return { first, second, rows };
    } finally {
      cli.close();
    }
  }

  describe.each(kinds.map((kind) => [kind.name, kind] as const))('on an %s channel', (_name, kind) => {
    const outcomes = new Map<AgentMode, Outcome>();
    let channelId = 0;

    beforeAll(async () => {
      channelId = await suite().only(kind);
      const ran = await Promise.all(agentsOn(kind.name).map(async (agent) => [agent, await session(agent, kind.name)] as const));
      for (const [agent, outcome] of ran) outcomes.set(agent, outcome);
    }, 300_000);

    it.each(agentsOn(kind.name))('%s: a shell-tool round trip, then a second turn of the same session', (agent) => {
      const outcome = outcomes.get(agent);
      if (!outcome) throw new Error(`${agent} did not run`);
      const { first, second, rows } = outcome;
      const log = () => suite().relay.output().slice(-4000);
      // The CLI's own output and the relay's log, when it did not finish as a user expects.
      if (first.code !== 0 || !first.output.includes(FIRST_OUTPUT)) throw new Error(`first turn: exit ${String(first.code)} (${first.ms} ms):\n${first.output}\n--- relay log:\n${log()}`);
      if (second?.code !== 0 || !second.output.includes(SECOND_OUTPUT)) {
        throw new Error(`second turn: exit ${String(second?.code)} (${second?.ms} ms):\n${second?.output}\n--- relay log:\n${log()}`);
      }
      if (agent === 'codex') {
        // Codex talks over the Responses WebSocket: opened on the relay, and no fallback to HTTP.
        expect({ fellBack: WEBSOCKET_FALLBACK.test(`${first.output}${second.output}`) }).toEqual({ fellBack: false });
        expect(suite().relay.output()).toContain('Responses WebSocket opened');
      }
      const failed = rows.filter((row) => row.status !== 200);
      if (failed.length > 0) throw new Error(`calls that failed: ${JSON.stringify(failed)}\n--- relay log:\n${log()}`);
      const modelCalls = rows.filter((row) => row.endpoint !== 'count_tokens');
      // At least: the call that asked for the tool and the one after its result, in each turn.
      expect(modelCalls.length).toBeGreaterThanOrEqual(4);
      for (const row of modelCalls) {
        expect({ row }).toMatchObject({ row: { status: 200, channel_id: channelId } });
        expect(row.prompt_tokens).toBeGreaterThan(0);
        expect(row.cost).toBeGreaterThan(0);
      }
      console.info(`${agent} on ${kind.name}: ${modelCalls.length} model calls (${[...new Set(modelCalls.map((row) => row.upstream_model))].join(', ')}), turns ${first.ms} ms + ${second.ms} ms`);
    });
  });
});
