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
