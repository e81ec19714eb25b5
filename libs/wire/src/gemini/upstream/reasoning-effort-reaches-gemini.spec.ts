// Issue 29 item 3, on Gemini: `reasoning_effort` became a thinking budget even on Gemini 3 (which
// thinks by level), thoughts were never asked for, and any that came were left out of the answer.
import { ChatCompletionRequestSchema } from '@chat-relay/contract';
import { readGeminiCassette, runGeminiStream } from '../testing/gemini-fixtures';
import { convertGeminiResponse } from './convert-gemini-response';
import { convertToGeminiRequest, type GeminiThinkingFacts } from './convert-to-gemini-request';

// The catalogue's facts (libs/wire/src/models/models-dev/api-subset.json).
const gemini3Pro: GeminiThinkingFacts = { reasoningOptions: [{ type: 'effort', values: ['low', 'high'] }] };
const gemini3Flash: GeminiThinkingFacts = { reasoningOptions: [{ type: 'effort', values: ['minimal', 'low', 'medium', 'high'] }] };
const gemini25Pro: GeminiThinkingFacts = { reasoningOptions: [{ type: 'budget_tokens', min: 128, max: 32768 }] };
const gemini25Flash: GeminiThinkingFacts = { reasoningOptions: [{ type: 'toggle' }, { type: 'budget_tokens', min: 0, max: 24576 }] };

const thinkingOf = (effort: string, facts?: GeminiThinkingFacts) =>
  convertToGeminiRequest(ChatCompletionRequestSchema.parse({ model: 'g', messages: [{ role: 'user', content: 'Hi' }], reasoning_effort: effort }), facts)
    .generationConfig?.thinkingConfig;

describe('reasoning_effort reaches Gemini as its thinking', () => {
  it('Gemini 3 gets thinkingLevel, the nearest level the model offers, and the thoughts', () => {
    expect(thinkingOf('high', gemini3Pro)).toEqual({ thinkingLevel: 'high', includeThoughts: true });
    expect(thinkingOf('medium', gemini3Pro)).toEqual({ thinkingLevel: 'high', includeThoughts: true });
    expect(thinkingOf('minimal', gemini3Flash)).toEqual({ thinkingLevel: 'minimal', includeThoughts: true });
    expect(thinkingOf('none', gemini3Pro)).toEqual({ thinkingLevel: 'low', includeThoughts: true });
  });

  it('Gemini 2.5 gets the budget of the one table, kept within the model range, and the thoughts', () => {
    expect(thinkingOf('high', gemini25Pro)).toEqual({ thinkingBudget: 24576, includeThoughts: true });
    // 2.5 Pro cannot stop thinking ("Budget 0 is invalid. This model only works in thinking mode.").
    expect(thinkingOf('none', gemini25Pro)).toEqual({ thinkingBudget: 128, includeThoughts: true });
    expect(thinkingOf('none', gemini25Flash)).toEqual({ thinkingBudget: 0, includeThoughts: false });
  });

  it('returns the thought summary as reasoning_content, apart from the answer (recorded gemini-3-pro-preview answer)', () => {
    const [interaction] = readGeminiCassette('cassette-thinking-part.yaml');
    const converted = convertGeminiResponse({ text: JSON.stringify(interaction!.responseJson), publicModel: 'g', created: 1 });
    if (!converted.ok) throw converted.error;
    const message = (converted.body['choices'] as Array<{ message: { content: string; reasoning_content?: string } }>)[0]!.message;
    expect(message.reasoning_content).toMatch(/^\*\*A Safe Street-Crossing Guide: My Thought Process\*\*/);
    expect(message.content).toMatch(/^Crossing the street safely is a fundamental skill/);
    expect(message.content).not.toContain('My Thought Process');
  });

  it('streams the thoughts as reasoning_content deltas before the answer (recorded gemini-2.5-pro stream)', () => {
    const [interaction] = readGeminiCassette('cassette-stream-thinking-part.yaml');
    const run = runGeminiStream(interaction!.responseEvents!, false);
    const deltas = run.chunks.map((chunk) => chunk.choices[0]?.delta as Record<string, unknown> | undefined);
    const reasoning = deltas.map((delta) => (typeof delta?.['reasoning_content'] === 'string' ? delta['reasoning_content'] : '')).join('');
    const answer = deltas.map((delta) => (typeof delta?.['content'] === 'string' ? delta['content'] : '')).join('');
    expect(reasoning.length).toBeGreaterThan(100);
    expect(answer).toContain('Here is a step-by-step');
    expect(answer).not.toContain(reasoning.slice(0, 40));
    const lastThought = deltas.map((delta) => typeof delta?.['reasoning_content'] === 'string').lastIndexOf(true);
    const firstText = deltas.findIndex((delta) => typeof delta?.['content'] === 'string' && delta['content'] !== '');
    expect(lastThought).toBeLessThan(firstText);
  });
});
