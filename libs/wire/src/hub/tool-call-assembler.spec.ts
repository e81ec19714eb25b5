import { plainToolCall, ToolCallAssembler } from './tool-call-assembler';

describe('ToolCallAssembler', () => {
  it('gathers a call by its index: id and name from the first delta, every argument fragment in order', () => {
    const calls = new ToolCallAssembler(plainToolCall);
    expect(calls.add({ index: 0, id: 'call_1', function: { name: 'get_weather', arguments: '' } })).toEqual({
      call: { id: 'call_1', name: 'get_weather', args: '' },
      fragment: '',
      started: true,
    });
    calls.add({ index: 0, function: { arguments: '{"city":' } });
    const last = calls.add({ index: 0, function: { arguments: '"Paris"}' } });
    expect(last).toEqual({ call: { id: 'call_1', name: 'get_weather', args: '{"city":"Paris"}' }, fragment: '"Paris"}', started: false });
  });

  it('a custom tool call: its name and input under `custom`, marked custom (Chat Completions custom tools, issue 29)', () => {
    const calls = new ToolCallAssembler(plainToolCall);
    calls.add({ index: 0, id: 'call_1', type: 'custom', custom: { name: 'apply_patch', input: '' } });
    const last = calls.add({ index: 0, custom: { input: '*** Begin' } });
    expect(last).toEqual({ call: { id: 'call_1', name: 'apply_patch', args: '*** Begin', custom: true }, fragment: '*** Begin', started: false });
  });

  it('keeps calls at different indexes apart, interleaved', () => {
    const calls = new ToolCallAssembler(plainToolCall);
    const first = calls.add({ index: 0, id: 'a', function: { name: 'f', arguments: '{"x"' } }).call;
    const second = calls.add({ index: 1, id: 'b', function: { name: 'g', arguments: '{}' } }).call;
    calls.add({ index: 0, function: { arguments: ':1}' } });
    expect([first, second]).toEqual([
      { id: 'a', name: 'f', args: '{"x":1}' },
      { id: 'b', name: 'g', args: '{}' },
    ]);
  });

  it('starts a new call on a new id at a known index (servers that number every call 0)', () => {
    const calls = new ToolCallAssembler(plainToolCall);
    calls.add({ index: 0, id: 'a', function: { name: 'f', arguments: '{}' } });
    const piece = calls.add({ index: 0, id: 'b', function: { name: 'g', arguments: '{}' } });
    expect(piece).toEqual({ call: { id: 'b', name: 'g', args: '{}' }, fragment: '{}', started: true });
  });

  it('does not double a name repeated on later fragments, and takes an id or name that comes late', () => {
    const calls = new ToolCallAssembler(plainToolCall);
    calls.add({ function: { arguments: '{' } });
    calls.add({ index: 0, id: 'late', function: { name: 'f', arguments: '}' } });
    const { call } = calls.add({ index: 0, function: { name: 'f' } });
    expect(call).toEqual({ id: 'late', name: 'f', args: '{}' });
  });

  it('makes each call with what the bridge keeps beside it', () => {
    const calls = new ToolCallAssembler(() => ({ id: '', name: '', args: '', state: 'waiting' as const }));
    expect(calls.add({ index: 0, id: 'a', function: { name: 'f' } }).call.state).toBe('waiting');
  });
});
