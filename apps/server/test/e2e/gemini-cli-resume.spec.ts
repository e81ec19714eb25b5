import { channelKinds } from './anthropic-e2e';
import { GEMINI, postGemini, startGeminiRelay, type GeminiE2e } from './gemini-e2e';

/**
 * Gemini CLI's resumed sessions send a turn's functionResponse twice (0.61 in the agents suite;
 * reported since 0.1: gemini-cli #3814, #5443, #16543, #21830). Gemini refuses that ("the number
 * of function response parts is equal to the number of function call parts", as the simulator
 * does), and the bridge refused it as answering no call: every later turn of the session failed.
 * The relay leaves the repeat out, on every channel type.
 */
const call = { id: 'run_shell_command__call_1', name: 'run_shell_command', args: { command: 'ls' } };
const answer = { id: call.id, name: call.name, response: { output: 'listing-7f3a' } };
const resumed = {
  contents: [
    { role: 'user', parts: [{ text: 'List files' }] },
    { role: 'model', parts: [{ functionCall: call }] },
    { role: 'user', parts: [{ functionResponse: answer }, { functionResponse: answer }] },
    { role: 'model', parts: [{ text: 'There is a.txt.' }] },
    { role: 'user', parts: [{ text: 'Thanks. And now?' }] },
  ],
  tools: [{ functionDeclarations: [{ name: 'run_shell_command', parameters: { type: 'object', properties: { command: { type: 'string' } } } }] }],
};

describe.each(channelKinds.map((kind) => [kind.type, kind] as const))("e2e: Gemini CLI's resumed session on a %s channel (issue 29)", (_type, kind) => {
  let e2e: GeminiE2e;

  beforeAll(async () => {
    e2e = await startGeminiRelay(kind);
  });

  afterAll(async () => {
    await e2e.close();
  });

  it('is answered: the repeated functionResponse is left out, one tool result reaches the upstream', async () => {
    const response = await postGemini(e2e, `${GEMINI}:generateContent`, resumed);
    expect({ status: response.status, body: await response.json() }).toMatchObject({ status: 200, body: { candidates: [{ content: { role: 'model' } }] } });
    const sent = JSON.stringify(kind.calls(e2e.sim).at(-1)?.body);
    expect(sent.split('listing-7f3a').length - 1).toBe(1);
  });
});
