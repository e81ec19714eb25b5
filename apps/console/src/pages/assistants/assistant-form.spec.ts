import { assistantFixture } from '../../testing/fixtures';
import { assistantFormFrom, emptyAssistantForm, toAssistantCreate, toAssistantUpdate } from './assistant-form';

const tool = { type: 'function', function: { name: 'lookup_order', parameters: { type: 'object' } } };

describe('assistant form → API body', () => {
  it('creates with its own id or none, any family when Models is empty, numbers and JSON read', () => {
    const outcome = toAssistantCreate({
      ...emptyAssistantForm(),
      name: 'Support',
      instructions: 'Be brief.',
      temperature: '0.2',
      maxTokens: '500',
      toolsJson: JSON.stringify([tool]),
      responseFormatJson: '{"type":"json_object"}',
    });
    expect(outcome).toEqual({
      ok: true,
      body: {
        name: 'Support',
        description: '',
        instructions: 'Be brief.',
        models: null,
        visibility: 'private',
        temperature: 0.2,
        top_p: null,
        max_tokens: 500,
        tools: [tool],
        response_format: { type: 'json_object' },
      },
    });
    expect(toAssistantCreate({ ...emptyAssistantForm(), name: 'x', id: 'g-custom1', models: 'gpt-4o, claude*' })).toMatchObject({ ok: true, body: { id: 'g-custom1', models: ['gpt-4o', 'claude*'] } });
  });

  it('says in the form’s words what is wrong', () => {
    const outcome = toAssistantCreate({ ...emptyAssistantForm(), name: 'x', id: 'bad id', temperature: '3', maxTokens: 'lots' });
    expect(outcome).toEqual({ ok: false, errors: ['Max tokens: must be a number'] });
    const second = toAssistantCreate({ ...emptyAssistantForm(), name: 'x', id: 'bad id', temperature: '3' });
    expect(second.ok === false && second.errors).toEqual([expect.stringMatching(/^ID: must be 'g-'/), expect.stringMatching(/^Temperature: /)]);
    const json = toAssistantCreate({ ...emptyAssistantForm(), name: 'x', responseFormatJson: '{"type":"yaml"}' });
    expect(json.ok === false && json.errors[0]).toMatch(/^Response format \(JSON\): /);
  });

  it('edits only what changed; clearing a number sends null', () => {
    const assistant = assistantFixture({ temperature: 0.7, tools: [] });
    const form = assistantFormFrom(assistant);
    expect(toAssistantUpdate(form, assistant)).toEqual({ ok: false, errors: ['Nothing changed.'] });
    expect(toAssistantUpdate({ ...form, temperature: '', visibility: 'public' }, assistant)).toEqual({ ok: true, body: { temperature: null, visibility: 'public' } });
  });
});
