/**
 * A Message id for a bridged answer, stable for a given completion: `msg_` and the completion
 * id without its own prefix (`chatcmpl-abc` → `msg_abc`, `gen-17-x` → `msg_17-x`).
 */
export function toMessageId(completionId: string | undefined): string {
  const suffix = (completionId ?? '').replace(/^[A-Za-z]+[-_](?=.)/, '');
  return `msg_${suffix === '' ? 'bridged' : suffix}`;
}
