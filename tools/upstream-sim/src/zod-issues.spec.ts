import { z } from 'zod';
import { dottedPath, firstIssue, protoPath } from './zod-issues';

describe('firstIssue', () => {
  const schema = z.object({
    messages: z.array(z.object({ content: z.union([z.string(), z.array(z.object({ text: z.string().min(1, 'empty') }))]) })),
    max_tokens: z.number(),
  });

  it('follows the union branch that got furthest into the value', () => {
    const parsed = schema.safeParse({ messages: [{ content: [{ text: '' }] }], max_tokens: 1 });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(firstIssue(parsed.error)).toEqual({ path: ['messages', 0, 'content', 0, 'text'], message: 'empty', missing: false });
  });

  it('says when a field is missing', () => {
    const parsed = schema.safeParse({ messages: [] });
    if (parsed.success) throw new Error('expected a failure');
    expect(firstIssue(parsed.error)).toMatchObject({ path: ['max_tokens'], missing: true });
  });
});

describe('paths', () => {
  it('spells a path the Anthropic way and the proto way', () => {
    expect(dottedPath(['messages', 0, 'content', 1, 'text'])).toBe('messages.0.content.1.text');
    expect(protoPath(['contents', 2, 'parts', 0, 'functionResponse', 'name'])).toBe('contents[2].parts[0].function_response.name');
  });
});
