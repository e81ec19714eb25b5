import { z } from 'zod';
import { formIssues, parseWholeNumber } from './form-issues';

describe('formIssues', () => {
  const schema = z.object({ base_url: z.string().url(), keys: z.array(z.string().min(1)) }).strict();

  it('names the field by its label and the list item by its 1-based position', () => {
    const result = schema.safeParse({ base_url: 'nope', keys: ['a', ''] });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(formIssues(result.error.issues, { base_url: 'Base URL', keys: 'Keys' }, 'line')).toEqual([
      'Base URL: Invalid url',
      'Keys (line 2): String must contain at least 1 character(s)',
    ]);
  });

  it('keeps the wire name of a field without a label and says a repeated complaint once', () => {
    const issue = { code: 'custom' as const, path: ['weight'], message: 'too heavy' };
    expect(formIssues([issue, issue], {})).toEqual(['weight: too heavy']);
  });
});

describe('parseWholeNumber', () => {
  it('reads signed whole numbers and names the field when it is not one', () => {
    expect(parseWholeNumber(' -5 ', 'Priority')).toEqual({ value: -5 });
    expect(parseWholeNumber('1.5', 'Weight')).toEqual({ error: 'Weight: must be a whole number' });
    expect(parseWholeNumber('', 'Weight')).toEqual({ error: 'Weight: must be a whole number' });
  });
});
