import { invalidRequest, type RelayError } from '../errors/relay-error';

/**
 * What converting a dialect's request to the hub learnt on the way: warnings for what was
 * accepted but cannot be honoured exactly (each said once), and the first thing only a channel
 * speaking the dialect natively can serve — the relay then refuses to bridge the request.
 */
export class BridgeNotes {
  readonly warnings: string[] = [];
  nativeOnly: RelayError | undefined;

  /** `refusal` words the 400 for a field only a native channel can serve. */
  constructor(private readonly refusal: (param: string, what: string) => string) {}

  warn(message: string): void {
    if (!this.warnings.includes(message)) this.warnings.push(message);
  }

  /** The first refusal wins: it names the field the caller should look at first. */
  refuse(param: string, what: string): void {
    this.nativeOnly ??= invalidRequest(this.refusal(param, what), param, 'unsupported_parameter');
  }
}
