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

  it('has the shape of an AbortSignal, so either can be passed', () => {
    const signal: AbortLike = new AbortController().signal;
    expect(signal.aborted).toBe(false);
  });
});
