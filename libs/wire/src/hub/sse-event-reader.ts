import type { SseEvent } from './upstream-adapter';

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;
const BOM = 0xfeff;

/**
 * An upstream's event stream read as its text arrives, piece by piece, as the HTML standard
 * interprets one (§9.2.6): a line ends at CRLF, LF or CR; `name: value` (one space after the
 * colon dropped; a line without a colon is a name with an empty value); `data` lines joined with
 * LF; a blank line dispatches the event when it has data; a line starting with `:` is a comment;
 * a byte order mark before the first line is dropped. `id` and `retry` say nothing to a relay
 * reading one answer, and are skipped.
 *
 * One object with a few fields per stream, where a parser made of closures costs an open stream
 * a closure per step and their context (issue 30). What an event's `data` is cut from is the
 * piece's text: a holder that keeps it past the piece copies it.
 */
export class SseEventReader {
  /** The text of a line not ended yet (never holds a line end). */
  private pending = '';
  private data = '';
  private dataLines = 0;
  private eventType: string | undefined;
  private started = false;
  /** The last piece ended with CR: an LF that starts the next is the same line end. */
  private afterCr = false;

  /** The events `text` completes, in order, added to `out`. */
  read(text: string, out: SseEvent[] = []): SseEvent[] {
    if (text === '') return out;
    if (!this.started) {
      this.started = true;
      if (text.charCodeAt(0) === BOM) text = text.slice(1);
    }
    if (this.afterCr) {
      this.afterCr = false;
      if (text.charCodeAt(0) === LF) text = text.slice(1);
    }
    const hasCr = text.indexOf('\r') !== -1;
    if (!hasCr && text.indexOf('\n') === -1) {
      // A piece inside a line: kept, and scanned once its line ends.
      this.pending += text;
      return out;
    }
    const all = this.pending === '' ? text : this.pending + text;
    let start = 0;
    if (!hasCr) {
      for (let end = all.indexOf('\n'); end !== -1; end = all.indexOf('\n', start)) {
        this.line(all, start, end, out);
        start = end + 1;
      }
    } else {
      while (start < all.length) {
        const end = lineEnd(all, start);
        if (end === -1) break;
        this.line(all, start, end, out);
        start = end + 1;
        if (all.charCodeAt(end) !== CR) continue;
        if (start === all.length) this.afterCr = true;
        else if (all.charCodeAt(start) === LF) start += 1;
      }
    }
    this.pending = start === all.length ? '' : all.slice(start);
    return out;
  }

  /** Forgets everything: the next text starts a stream of its own. */
  reset(): void {
    this.pending = '';
    this.data = '';
    this.dataLines = 0;
    this.eventType = undefined;
    this.started = false;
    this.afterCr = false;
  }

  /** The line `text[start, end)`. */
  private line(text: string, start: number, end: number, out: SseEvent[]): void {
    if (start === end) {
      this.dispatch(out);
      return;
    }
    const first = text.charCodeAt(start);
    if (first === COLON) return;
    // The lines nearly every event is made of, read without cutting out their names.
    if (first === 0x64 && text.startsWith('data:', start)) {
      this.addData(text.slice(valueStart(text, start + 5, end), end));
      return;
    }
    if (first === 0x65 && text.startsWith('event:', start)) {
      this.eventType = text.slice(valueStart(text, start + 6, end), end) || undefined;
      return;
    }
    const colon = text.indexOf(':', start);
    const named = colon === -1 || colon > end ? end : colon;
    const field = text.slice(start, named);
    const value = named === end ? '' : text.slice(valueStart(text, named + 1, end), end);
    if (field === 'data') this.addData(value);
    else if (field === 'event') this.eventType = value || undefined;
  }

  private addData(value: string): void {
    this.data = this.dataLines === 0 ? value : `${this.data}\n${value}`;
    this.dataLines += 1;
  }

  private dispatch(out: SseEvent[]): void {
    if (this.dataLines > 0) out.push(this.eventType === undefined ? { data: this.data } : { event: this.eventType, data: this.data });
    this.data = '';
    this.dataLines = 0;
    this.eventType = undefined;
  }
}

/** Where a field's value starts: after the colon at `at`, and one space if there is one. */
function valueStart(text: string, at: number, end: number): number {
  return at < end && text.charCodeAt(at) === SPACE ? at + 1 : at;
}

/** The first CR or LF at or after `start`, or -1. */
function lineEnd(text: string, start: number): number {
  const lf = text.indexOf('\n', start);
  const cr = text.indexOf('\r', start);
  if (cr === -1) return lf;
  return lf === -1 || cr < lf ? cr : lf;
}
