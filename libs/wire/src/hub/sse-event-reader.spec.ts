import fs from 'node:fs';
import path from 'node:path';
import { createParser } from 'eventsource-parser';
import { FIXTURES_DIR } from '../testing/fixtures';
import { SseEventReader } from './sse-event-reader';
import type { SseEvent } from './upstream-adapter';

/** Every recorded SSE body in test-fixtures/. */
const recorded = fs
  .readdirSync(FIXTURES_DIR, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.sse'))
  .sort();

/** What eventsource-parser (the parser the relay used before) reads from `text` fed whole: the reference. */
function reference(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  createParser({ onEvent: ({ event, data }) => events.push(event ? { event, data } : { data }) }).feed(text);
  return events;
}

/** What a reader reads from `text` fed in `pieces` (cut at those offsets). */
function readInPieces(text: string, cuts: readonly number[]): SseEvent[] {
  const reader = new SseEventReader();
  const events: SseEvent[] = [];
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    reader.read(text.slice(from, cut), events);
    from = cut;
  }
  return events;
}

/** A small deterministic generator: the same cuts in every run. */
function randomCuts(length: number, seed: number, count: number): number[] {
  let state = seed;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31);
  return Array.from({ length: count }, () => next() % (length + 1)).sort((a, b) => a - b);
}

describe('SseEventReader: the relay reads an upstream event stream as eventsource-parser did, with none of its closures (issue 30)', () => {
  it('found the recorded streams', () => {
    expect(recorded.length).toBeGreaterThanOrEqual(10);
  });

  it.each(recorded)('%s: the same events whole, byte by byte, and cut at 200 random places (20 ways)', (file) => {
    const text = fs.readFileSync(path.join(FIXTURES_DIR, file), 'utf8');
    const expected = reference(text);
    expect(expected.length).toBeGreaterThan(0);
    expect(readInPieces(text, [])).toEqual(expected);
    expect(readInPieces(text, Array.from({ length: text.length }, (_, index) => index))).toEqual(expected);
    for (let seed = 1; seed <= 20; seed += 1) expect(readInPieces(text, randomCuts(text.length, seed, 200))).toEqual(expected);
  });

  it('the same with CRLF and CR line ends, comments, named events, multi-line data, fields without a space or a value, id and retry', () => {
    const lines = [
      ': a comment, then an event with two data lines',
      'event: message_start',
      'data: {"a":1}',
      'data:{"b":2}',
      '',
      'id: 7',
      'retry: 1000',
      'data',
      '',
      'data: ',
      '',
      'event:',
      'data: x: y',
      '',
      'unknown: field',
      'event: only a name',
      '',
      'data:  two spaces',
      '',
      // Not ended: eventsource-parser holds a CR that ends its text (an LF may follow), and the reader would not hold one.
      ': the end',
    ];
    for (const end of ['\n', '\r\n', '\r']) {
      const text = lines.join(end);
      const expected = reference(text);
      expect(expected).toEqual([
        { event: 'message_start', data: '{"a":1}\n{"b":2}' },
        { data: '' },
        { data: '' },
        { data: 'x: y' },
        { data: ' two spaces' },
      ]);
      for (let seed = 1; seed <= 50; seed += 1) expect({ end, events: readInPieces(text, randomCuts(text.length, seed, 30)) }).toEqual({ end, events: expected });
      expect(readInPieces(text, Array.from({ length: text.length }, (_, index) => index))).toEqual(expected);
    }
  });

  it('an event is read as soon as its blank line arrives, even when the piece ends with a CR', () => {
    const reader = new SseEventReader();
    expect(reader.read('data: a\r')).toEqual([]);
    expect(reader.read('\r')).toEqual([{ data: 'a' }]);
    expect(reader.read('')).toEqual([]);
    // The LF that follows belongs to the CR before it: no second blank line, no empty event.
    expect(reader.read('\ndata: b\r\n\r\n')).toEqual([{ data: 'b' }]);
  });

  it("drops a byte order mark before the stream's first line only; an unfinished event is not dispatched", () => {
    const reader = new SseEventReader();
    expect(reader.read('\ufeffdata: first\n\n\ufeffdata: second\n\ndata: never ended\n')).toEqual([{ data: 'first' }]);
  });

  it('reset starts a stream afresh: what was pending is forgotten', () => {
    const reader = new SseEventReader();
    expect(reader.read('event: e\ndata: half')).toEqual([]);
    reader.reset();
    expect(reader.read('\ufeffdata: next\n\n')).toEqual([{ data: 'next' }]);
  });

  it('a long line arriving in many pieces is joined once its end comes', () => {
    const reader = new SseEventReader();
    const value = 'x'.repeat(10_000);
    for (let at = 0; at < value.length; at += 100) expect(reader.read(at === 0 ? `data: ${value.slice(0, 100)}` : value.slice(at, at + 100))).toEqual([]);
    expect(reader.read('\n\n')).toEqual([{ data: value }]);
  });
});
