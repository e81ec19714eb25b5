/** Test-only: the ids and settings a bridged Response is built with. */
import type { NewItemId } from '../caller/convert-chat-to-response';

/** Deterministic item ids: `msg_1`, `fc_2`, `rs_3` … in the order they are asked for. */
export function sequentialIds(): NewItemId {
  let next = 0;
  return (prefix) => `${prefix}_${(next += 1)}`;
}

export const RESPONSE_ID = 'resp_bridged1';
export const CREATED_AT = 1_700_000_000;
export const PUBLIC_MODEL = 'gpt-bridged';
