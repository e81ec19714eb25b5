import { deleteQuestion, describeBatch } from './token-batch';

describe('token batch outcome', () => {
  it('says how many changed', () => {
    expect(describeBatch({ action: 'disable', results: [{ id: 1, status: 'ok' }, { id: 2, status: 'ok' }] })).toBe('Disabled 2 tokens.');
    expect(describeBatch({ action: 'enable', results: [{ id: 1, status: 'ok' }] })).toBe('Enabled 1 token.');
  });

  it('names the ids that were not found', () => {
    expect(describeBatch({ action: 'delete', results: [{ id: 1, status: 'ok' }, { id: 9, status: 'not_found' }, { id: 11, status: 'not_found' }] })).toBe(
      'Deleted 1 token; 2 were not found (#9, #11).',
    );
  });

  it('asks before deleting, with the count', () => {
    expect(deleteQuestion(3)).toMatch(/^Delete 3 tokens\?/);
  });
});
