import type { GeminiGenerateContentRequest } from '@chat-relay/contract';
import { lost } from '../../testing/lost';
import { dropRepeatedFunctionResponses } from './drop-repeated-function-responses';

const call = { id: 'run_shell_command__call_1', name: 'run_shell_command', args: { command: 'ls' } };
const answer = { id: call.id, name: call.name, response: { output: 'a.txt' } };

describe("dropRepeatedFunctionResponses (Gemini CLI's resumed sessions; gemini-cli #16543)", () => {
  it('leaves out a second response to the same call id in a turn, naming where it was', () => {
    const body: GeminiGenerateContentRequest = {
      contents: [
        { role: 'user', parts: [{ text: 'List files' }] },
        { role: 'model', parts: [{ functionCall: call }] },
        { role: 'user', parts: [{ functionResponse: answer }, { functionResponse: answer }] },
        { role: 'user', parts: [{ text: 'Again' }] },
      ],
    };
    const { body: repaired, dropped } = dropRepeatedFunctionResponses(body);
    expect(repaired.contents[2]?.parts).toEqual([{ functionResponse: answer }]);
    expect(repaired.contents.filter((content, index) => index !== 2)).toEqual(body.contents.filter((content, index) => index !== 2));
    expect(dropped).toEqual([lost('contents[2].parts[1].functionResponse')]);
    // The caller's body is not changed in place.
    expect(body.contents[2]?.parts).toHaveLength(2);
  });

  it('keeps two answers to two calls, and id-less answers that differ; the body itself when nothing repeats', () => {
    const two: GeminiGenerateContentRequest = {
      contents: [
        { role: 'model', parts: [{ functionCall: { name: 'a', args: {} } }, { functionCall: { name: 'a', args: { n: 2 } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'a', response: { n: 1 } } }, { functionResponse: { name: 'a', response: { n: 2 } } }] },
      ],
    };
    const result = dropRepeatedFunctionResponses(two);
    expect(result.body).toBe(two);
    expect(result.dropped).toEqual([]);
    const sameAgain: GeminiGenerateContentRequest = {
      contents: [{ role: 'user', parts: [{ functionResponse: { name: 'a', response: { n: 1 } } }, { functionResponse: { name: 'a', response: { n: 1 } } }] }],
    };
    expect(dropRepeatedFunctionResponses(sameAgain).body.contents[0]?.parts).toHaveLength(1);
  });
});
