/** One SSE event as a fuzz checker reads it: its `event:` name (if any) and its joined data lines. */
export interface NamedSseEvent {
  name: string | undefined;
  data: string;
}

/** An answer's SSE text split into events, comments and empty blocks left out. */
export function namedSseEvents(text: string): NamedSseEvent[] {
  const events: NamedSseEvent[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    const lines = block.split(/\r?\n/).filter((line) => line !== '' && !line.startsWith(':'));
    if (lines.length === 0) continue;
    const name = lines.find((line) => line.startsWith('event:'))?.slice(6).trim();
    const data = lines
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    events.push({ name, data });
  }
  return events;
}
