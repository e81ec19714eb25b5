import { TextDecoder, TextEncoder } from 'node:util';

// jsdom leaves out TextEncoder/TextDecoder, which react-router and the CSV export use; Node's are the same API.
if (typeof globalThis.TextEncoder === 'undefined') {
  Object.assign(globalThis, { TextEncoder, TextDecoder });
}

// jsdom has no ResizeObserver, which Recharts' responsive charts need; this one never reports a size.
class NoResizeObserver {
  observe(): void {
    // Nothing to observe: jsdom lays nothing out.
  }
  unobserve(): void {
    // Nothing observed.
  }
  disconnect(): void {
    // Nothing observed.
  }
}
if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = NoResizeObserver;
}
