import type { UsageLogEntry } from '../types';

/** Relay → writer thread: store this batch. */
export interface WriteRequest {
  id: number;
  batch: readonly UsageLogEntry[];
}

/** Writer thread → relay: batch `id` is stored, or why not. */
export interface WriteReply {
  id: number;
  error?: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

export const isWriteRequest = (value: unknown): value is WriteRequest =>
  isRecord(value) && typeof value['id'] === 'number' && Array.isArray(value['batch']);

export const isWriteReply = (value: unknown): value is WriteReply =>
  isRecord(value) && typeof value['id'] === 'number' && (value['error'] === undefined || typeof value['error'] === 'string');

/** Relay → writer thread: no more batches; close the connection and end. */
export const isCloseRequest = (value: unknown): value is { close: true } => isRecord(value) && value['close'] === true;
