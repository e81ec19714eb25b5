import { UpstreamBody } from './upstream-body';
import { classifyTransportError } from './upstream-client';

const KIB = 1024;
const noop = () => undefined;
const piece = (text: string) => Buffer.from(text);

function newBody() {
  const aborts: Error[] = [];
  return { body: new UpstreamBody({ abort: (error) => aborts.push(error) }), aborts };
}

describe('UpstreamBody', () => {
  it('delivers pieces pushed before and after next() in order, then done after end()', async () => {
    const { body } = newBody();
    body.push(piece('a'), noop);
    body.push(piece('b'), noop);
    expect((await body.next()).value?.toString()).toBe('a');
    expect((await body.next()).value?.toString()).toBe('b');
    const waiting = body.next();
    expect(body.push(piece('c'), noop)).toBe(true);
    expect(await waiting).toEqual({ value: piece('c'), done: false });
    body.push(piece('d'), noop);
    body.end();
    expect((await body.next()).value?.toString()).toBe('d');
    expect(await body.next()).toEqual({ value: undefined, done: true });
    expect(await body.next()).toEqual({ value: undefined, done: true });
  });

  it('ends a reader that is already waiting', async () => {
    const { body } = newBody();
    const waiting = body.next();
    body.end();
    await expect(waiting).resolves.toEqual({ value: undefined, done: true });
  });

  it('delivers the pieces received before a failure, then rejects with it', async () => {
    const { body } = newBody();
    const failure = Object.assign(new Error('socket hang up'), { code: 'UND_ERR_SOCKET' });
    body.push(piece('one'), noop);
    body.push(piece('two'), noop);
    body.fail(failure);
    expect((await body.next()).value?.toString()).toBe('one');
    expect((await body.next()).value?.toString()).toBe('two');
    await expect(body.next()).rejects.toBe(failure);
    await expect(body.text()).rejects.toBe(failure);
  });

  it('rejects a reader that is already waiting when the upstream fails', async () => {
    const { body } = newBody();
    const waiting = body.next();
    const failure = new Error('reset');
    body.fail(failure);
    await expect(waiting).rejects.toBe(failure);
  });

  it('ignores a failure reported after the end', async () => {
    const { body } = newBody();
    body.push(piece('all'), noop);
    body.end();
    body.fail(new Error('late'));
    expect(await body.text()).toBe('all');
  });

  it('asks undici to pause once 64 KiB are queued and resumes it once the reader drains below that', async () => {
    const { body } = newBody();
    const resume = jest.fn();
    expect(body.push(Buffer.alloc(32 * KIB), resume)).toBe(true);
    expect(body.push(Buffer.alloc(32 * KIB - 1), resume)).toBe(true);
    expect(body.push(Buffer.alloc(1), resume)).toBe(false);
    expect(resume).not.toHaveBeenCalled();

    expect((await body.next()).value).toHaveLength(32 * KIB);
    expect(resume).toHaveBeenCalledTimes(1);
    await body.next();
    await body.next();
    expect(resume).toHaveBeenCalledTimes(1);
  });

  it('keeps the upstream paused while the queue stays at or above 64 KiB', async () => {
    const { body } = newBody();
    const resume = jest.fn();
    body.push(Buffer.alloc(KIB), resume);
    body.push(Buffer.alloc(64 * KIB), resume);
    expect(body.push(Buffer.alloc(KIB), resume)).toBe(false);
    await body.next();
    // 65 KiB still queued: resuming now would let the queue grow without bound.
    expect(resume).not.toHaveBeenCalled();
    await body.next();
    expect(resume).toHaveBeenCalledTimes(1);
  });

  it('aborts the upstream when the reader stops early, with an error classified as aborted', async () => {
    const { body, aborts } = newBody();
    body.push(piece('first'), noop);
    body.push(piece('unread'), noop);
    expect((await body.next()).value?.toString()).toBe('first');
    expect(aborts).toHaveLength(0);
    await expect(body.return()).resolves.toEqual({ value: undefined, done: true });
    expect(aborts).toHaveLength(1);
    expect(classifyTransportError(aborts[0])).toBe('aborted');
    expect(await body.next()).toEqual({ value: undefined, done: true });
  });

  it('does not abort an upstream that already ended', async () => {
    const { body, aborts } = newBody();
    body.push(piece('x'), noop);
    body.end();
    await body.return();
    expect(aborts).toHaveLength(0);
  });

  it('joins UTF-8 text whose multi-byte characters are split across pieces', async () => {
    const { body } = newBody();
    const bytes = Buffer.from('héllo wörld €𝄞 ✓');
    const reading = body.text();
    for (let offset = 0; offset < bytes.length; offset += 2) {
      body.push(bytes.subarray(offset, offset + 2), noop);
      await Promise.resolve();
    }
    body.end();
    expect(await reading).toBe('héllo wörld €𝄞 ✓');
  });

  it('reads a single-piece body as text', async () => {
    const { body } = newBody();
    body.push(piece('{"ok":true}'), noop);
    body.end();
    expect(await body.text()).toBe('{"ok":true}');
  });
});
