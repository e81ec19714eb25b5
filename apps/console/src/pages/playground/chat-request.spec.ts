import { emptyAnswer } from './accumulate-chunks';
import { buildChatRequest, parseTools, type ChatTurn } from './chat-request';

const weatherTool = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };

describe('parseTools', () => {
  it('takes nothing, an array of tools, or a single tool', () => {
    expect(parseTools('  ')).toEqual({ tools: undefined });
    expect(parseTools(JSON.stringify([weatherTool]))).toEqual({ tools: [weatherTool] });
    expect(parseTools(JSON.stringify(weatherTool))).toEqual({ tools: [weatherTool] });
  });

  it('says where the JSON or a tool is wrong', () => {
    expect(parseTools('[{')).toEqual({ errors: [expect.stringMatching(/^Tools \(JSON\): not JSON/)] });
    const bad = parseTools(JSON.stringify([weatherTool, { type: 'function', function: { name: 'has spaces' } }]));
    expect(bad).toEqual({ errors: [expect.stringMatching(/^Tools \(JSON\) \(tool 2, function\.name\): must be 1-64/)] });
    expect(parseTools('[]')).toEqual({ errors: ['Tools (JSON): give at least one tool, or leave the field empty'] });
  });
});

describe('buildChatRequest', () => {
  const input = { model: ' gpt-4o ', systemPrompt: 'Be brief.', message: 'And tomorrow?', toolsJson: '' };

  it('streams with usage, the system prompt first and the history’s text, tool calls left out', () => {
    const turns: ChatTurn[] = [
      { id: 1, role: 'user', content: 'Weather in Paris?' },
      { id: 2, role: 'assistant', stopped: false, answer: { ...emptyAnswer(), toolCalls: [{ index: 0, id: 'c', name: 'get_weather', arguments: '{}' }] } },
      { id: 3, role: 'user', content: 'Just guess.' },
      { id: 4, role: 'assistant', stopped: false, answer: { ...emptyAnswer(), content: 'Sunny.' } },
    ];
    expect(buildChatRequest(input, turns)).toEqual({
      request: {
        model: 'gpt-4o',
        stream: true,
        stream_options: { include_usage: true },
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Weather in Paris?' },
          { role: 'user', content: 'Just guess.' },
          { role: 'assistant', content: 'Sunny.' },
          { role: 'user', content: 'And tomorrow?' },
        ],
      },
    });
  });

  it('sends the tools when given and lists everything missing at once', () => {
    const withTools = buildChatRequest({ ...input, systemPrompt: '', toolsJson: JSON.stringify([weatherTool]) }, []);
    expect('request' in withTools && withTools.request).toMatchObject({ tools: [weatherTool], messages: [{ role: 'user', content: 'And tomorrow?' }] });
    const missing = buildChatRequest({ model: '', systemPrompt: '', message: ' ', toolsJson: '{' }, []);
    expect('errors' in missing && missing.errors.map((error) => error.split(':')[0])).toEqual(['Model', 'Message', 'Tools (JSON)']);
  });
});
