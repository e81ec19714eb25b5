import { invalidRequest, type RelayError } from '../errors/relay-error';

/**
 * What a Messages → Chat Completions conversion learnt on the way: warnings for what was
 * accepted but cannot be honoured exactly (each said once), and the first thing only an
 * Anthropic channel can serve — the relay then refuses to bridge the request.
 */
export class BridgeNotes {
  readonly warnings: string[] = [];
  nativeOnly: RelayError | undefined;

  warn(message: string): void {
    if (!this.warnings.includes(message)) this.warnings.push(message);
  }

  /** The first refusal wins: it names the field the caller should look at first. */
  refuse(param: string, why: string): void {
    this.nativeOnly ??= invalidRequest(
      `'${param}' can only be served by an Anthropic channel: ${why}.`,
      param,
      'unsupported_parameter',
    );
  }
}
