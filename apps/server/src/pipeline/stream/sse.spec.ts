import { createParser } from 'eventsource-parser';
import { sseEvent } from './sse';

/** What an SSE client reads back from the frames. */
function parse(text: string): Array<{ event: string | undefined; data: string }> {
  const events: Array<{ event: string | undefined; data: string }> = [];
  const parser = createParser({ onEvent: ({ event, data }) => events.push({ event, data }) });
  parser.feed(text);
  return events;
}

describe('sseEvent', () => {
  it('frames a named event with one data line', () => {
    expect(sseEvent('message_stop', '{"type":"message_stop"}')).toBe('event: message_stop\ndata: {"type":"message_stop"}\n\n');
  });

  it('keeps one data: field per line of multi-line data, so a client reads the data back as sent', () => {
    const data = '{"type":"ping",\n "note":"two\\nlines"\n}';
    const frame = sseEvent('ping', data);
    expect(frame).toBe('event: ping\ndata: {"type":"ping",\ndata:  "note":"two\\nlines"\ndata: }\n\n');
    expect(parse(frame)).toEqual([{ event: 'ping', data }]);
  });

  it('keeps empty lines inside the data as empty data fields, never ending the event early', () => {
    const data = 'first\n\nthird\n';
    const frame = sseEvent('content_block_delta', data);
    expect(frame.split('\n\n')).toHaveLength(2);
    expect(parse(frame + sseEvent('message_stop', '{}'))).toEqual([
      { event: 'content_block_delta', data },
      { event: 'message_stop', data: '{}' },
    ]);
  });
});
