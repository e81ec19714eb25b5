import { createParser } from 'eventsource-parser';

/** The `data` payloads of a server-sent event stream, in order. */
export function sseDataOf(text: string): string[] {
  const data: string[] = [];
  const parser = createParser({ onEvent: (event) => data.push(event.data) });
  parser.feed(text);
  return data;
}

export interface RawStream {
  status: number;
  headers: Headers;
  text: string;
  /** Every event's data, `[DONE]` included. */
  data: string[];
  /** The events other than `[DONE]`, parsed. */
  events: Record<string, unknown>[];
}

/** Reads a whole fetch response as an SSE stream. */
export async function readRawStream(response: Response): Promise<RawStream> {
  const text = await response.text();
  const data = sseDataOf(text);
  const events = data.filter((item) => item !== '[DONE]').map((item) => JSON.parse(item) as Record<string, unknown>);
  return { status: response.status, headers: response.headers, text, data, events };
}
