/**
 * The circuit breakers' shared part (issue 15): each instance counts the failures it sees, and
 * when one opens a channel's circuit — or a trial closes it — every instance learns it, so a
 * broken upstream is taken out of rotation everywhere by the evidence one instance gathered.
 */
export interface CircuitSync {
  /** This instance opened the circuit until `openUntil` (ms since the epoch), or closed it (`null`). */
  announce(channelId: number, openUntil: number | null): void;
  /** Called with what other instances announce (never with this instance's own announcements). */
  onRemote(listener: (channelId: number, openUntil: number | null) => void): void;
  /** The circuits open now, as every instance announced them (start-up and periodic refresh). */
  openCircuits(): Promise<Map<number, number>>;
}

/** One instance: nothing to share. */
export const LOCAL_CIRCUITS: CircuitSync = {
  announce: () => undefined,
  onRemote: () => undefined,
  openCircuits: async () => new Map(),
};
