import { ChatCompletionRequestSchema } from '@chat-relay/contract';
import { describeIssue, formatParamPath, mostSpecificIssue } from './zod-issue-param';

const firstIssue = (body: unknown) => {
  const result = ChatCompletionRequestSchema.safeParse(body);
  if (result.success) throw new Error('expected a failure');
  const issue = mostSpecificIssue(result.error);
  return { issue, param: formatParamPath(issue.path) };
};

describe('zod issue → OpenAI param', () => {
  it('formats paths the way OpenAI names fields', () => {
    expect(formatParamPath(['messages', 0, 'role'])).toBe('messages[0].role');
    expect(formatParamPath(['tools', 2, 'function', 'name'])).toBe('tools[2].function.name');
    expect(formatParamPath([0])).toBe('[0]');
    expect(formatParamPath([])).toBe('');
  });

  it('names the role of a message with an unknown role', () => {
    const { param, issue } = firstIssue({ model: 'm', messages: [{ role: 'wizard', content: 'hi' }] });
    expect(param).toBe('messages[0].role');
    expect(describeIssue(issue, param)).toContain("Invalid value for 'messages[0].role'");
  });

  it('digs into unions for the deepest issue (a bad content part type)', () => {
    const { param } = firstIssue({
      model: 'm',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'video', url: 'x' }] }],
    });
    expect(param).toBe('messages[0].content[1].type');
  });

  it('says a required field is missing', () => {
    const { param, issue } = firstIssue({ messages: [{ role: 'user', content: 'hi' }] });
    expect(param).toBe('model');
    expect(describeIssue(issue, param)).toBe("Missing required parameter: 'model'.");
  });

  it('names a tool message without tool_call_id', () => {
    const { param } = firstIssue({ model: 'm', messages: [{ role: 'tool', content: 'x' }] });
    expect(param).toBe('messages[0].tool_call_id');
  });
});
