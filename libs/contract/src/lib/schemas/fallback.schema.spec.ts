import { AnthropicMessagesRequestSchema } from './anthropic/anthropic-messages-request.schema';
import { ChatCompletionRequestSchema } from './chat-completion-request.schema';
import { ResponsesRequestSchema } from './openai-responses/responses-request.schema';

const messages = [{ role: 'user', content: 'Hi' }];

/** A request's own chain across models (issue 32) on chat, Messages and Responses. */
describe('models / fallbacks on the request schemas', () => {
  it.each([
    ['chat', ChatCompletionRequestSchema, { messages }],
    ['Messages', AnthropicMessagesRequestSchema, { messages, max_tokens: 10 }],
    ['Responses', ResponsesRequestSchema, { input: 'Hi' }],
  ] as const)('%s: `models` alone names the model (its first entry); a request with neither is refused at `model`', (_name, schema, body) => {
    const parsed = schema.parse({ ...body, models: ['a', 'b'] });
    expect(parsed.model).toBe('a');
    expect(parsed.models).toEqual(['a', 'b']);
    expect(schema.parse({ ...body, model: 'x', fallbacks: ['y'] })).toMatchObject({ model: 'x', fallbacks: ['y'] });
    const refused = schema.safeParse(body);
    expect(refused.success).toBe(false);
    expect(refused.error?.issues).toEqual([expect.objectContaining({ path: ['model'], message: 'Required' })]);
  });

  it('keeps a request naming `model` as it is, and bounds the lists', () => {
    const body = { model: 'gpt-4o', messages, models: ['gpt-4o', 'gpt-4.1'] };
    expect(ChatCompletionRequestSchema.parse(body)).toStrictEqual(body);
    expect(ChatCompletionRequestSchema.safeParse({ messages, models: [] }).success).toBe(false);
    expect(ChatCompletionRequestSchema.safeParse({ messages, models: Array.from({ length: 11 }, (_, index) => `m${index}`) }).success).toBe(false);
    expect(ChatCompletionRequestSchema.safeParse({ model: 'a', messages, fallbacks: [''] }).success).toBe(false);
  });
});
