import { invalidRequest, type RelayError } from '../errors/relay-error';

/**
 * What a Responses → Chat Completions conversion learnt on the way: warnings for what was
 * accepted but cannot be honoured exactly (each said once), and the first thing only a channel
 * speaking the Responses API natively can serve — the relay then refuses to bridge the request.
 */
export class ResponsesBridgeNotes {
  readonly warnings: string[] = [];
  nativeOnly: RelayError | undefined;

  warn(message: string): void {
    if (!this.warnings.includes(message)) this.warnings.push(message);
  }

  /** The first refusal wins: it names the field the caller should look at first. */
  refuse(param: string, what: string): void {
    this.nativeOnly ??= invalidRequest(
      `'${param}': ${what} is only available on channels that speak the Responses API natively.`,
      param,
      'unsupported_parameter',
    );
  }
}
