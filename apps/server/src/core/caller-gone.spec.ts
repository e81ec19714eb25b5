import { CallerGone, type AbortLike } from './caller-gone';

describe('CallerGone', () => {
  it('calls each listener once, in order, when aborted', () => {
    const gone = new CallerGone();
    const calls: string[] = [];
    gone.addEventListener('abort', () => calls.push('a'));
    gone.addEventListener('abort', () => calls.push('b'));
    gone.abort();
    gone.abort();
    expect(calls).toEqual(['a', 'b']);
    expect(gone.aborted).toBe(true);
  });

  it('does not call a removed listener, nor one added after the abort', () => {
    const gone = new CallerGone();
    const calls: string[] = [];
    const removed = () => calls.push('removed');
    gone.addEventListener('abort', removed);
    gone.removeEventListener('abort', removed);
    gone.abort();
    gone.addEventListener('abort', () => calls.push('late'));
    expect(calls).toEqual([]);
  });

  it('keeps the order added when the earliest listeners are removed and others come after', () => {
    const gone = new CallerGone();
    const calls: string[] = [];
    const listener = (name: string) => () => calls.push(name);
    const [a, b, c, d] = [listener('a'), listener('b'), listener('c'), listener('d')];
    gone.addEventListener('abort', a);
    gone.addEventListener('abort', b);
    gone.addEventListener('abort', c);
    gone.removeEventListener('abort', a);
    gone.removeEventListener('abort', c);
    gone.addEventListener('abort', d);
    gone.removeEventListener('abort', b);
    gone.addEventListener('abort', a);
    gone.abort();
    expect(calls).toEqual(['d', 'a']);
  });

  it('has the shape of an AbortSignal, so either can be passed', () => {
    const signal: AbortLike = new AbortController().signal;
    expect(signal.aborted).toBe(false);
  });
});
