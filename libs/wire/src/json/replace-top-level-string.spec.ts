import { replaceTopLevelString } from './replace-top-level-string';

const replaced = (json: string, value = 'upstream-model') => replaceTopLevelString(Buffer.from(json), 'model', value)?.toString('utf8');

describe('replaceTopLevelString', () => {
  it('replaces only the top-level value, every other byte kept (whitespace, key order, number spelling)', () => {
    const json = '{ "max_tokens" : 1.0e3,\n  "model":"claude-x", "tools":[{"name":"model","input_schema":{"$schema":"s","type":"object"}}] }';
    expect(replaced(json)).toBe('{ "max_tokens" : 1.0e3,\n  "model":"upstream-model", "tools":[{"name":"model","input_schema":{"$schema":"s","type":"object"}}] }');
  });

  it('ignores "model" keys and values inside nested objects and strings', () => {
    const json = '{"metadata":{"model":"inner"},"messages":[{"role":"user","content":"\\"model\\": \\"x\\""}],"model":"outer"}';
    const out = replaced(json, 'mapped');
    expect(JSON.parse(out ?? '')).toEqual({ ...JSON.parse(json), model: 'mapped' });
    expect(out).toContain('{"model":"inner"}');
  });

  it('replaces the last of repeated keys (the one JSON.parse keeps) and escapes the new value', () => {
    const out = replaced('{"model":"a","x":1,"model":"b"}', 'we"ird');
    expect(out).toBe('{"model":"a","x":1,"model":"we\\"ird"}');
    expect(JSON.parse(out ?? '').model).toBe('we"ird');
  });

  it('keeps multi-byte text intact', () => {
    const json = '{"messages":[{"role":"user","content":"héllo 🌍"}],"model":"m"}';
    expect(replaced(json)).toBe('{"messages":[{"role":"user","content":"héllo 🌍"}],"model":"upstream-model"}');
  });

  it.each(['{"model":42}', '{"other":"x"}', '{"model":null}', '{"model":"unterminated}'])('is undefined without a top-level string model: %s', (json) => {
    expect(replaced(json)).toBeUndefined();
  });
});
