import { invalidRequest, type RelayError } from '../errors/relay-error';
import { lossOf, type Adjustment, type LossDetail, type LossRule } from './bridge-loss';

/**
 * What converting a dialect's request to the hub learnt on the way: the losses — what was
 * accepted but cannot be honoured exactly, each said once, as data — and the first thing only a
 * channel speaking the dialect natively can serve: the relay then refuses to bridge the request.
 */
export class BridgeNotes {
  readonly warnings: Adjustment[] = [];
  nativeOnly: RelayError | undefined;

  /** `refusal` words the 400 for a field only a native channel can serve. */
  constructor(private readonly refusal: (param: string, what: string) => string) {}

  /** Notes one loss of the bridge's table (`detail`: the field as this request named it, its values). */
  lose(rule: LossRule, detail?: LossDetail): void {
    const loss = lossOf(rule, detail);
    const same = (seen: Adjustment) => seen.field === loss.field && seen.kind === loss.kind && seen.reason === loss.reason && seen.from === loss.from;
    if (!this.warnings.some(same)) this.warnings.push(loss);
  }

  /** The first refusal wins: it names the field the caller should look at first. */
  refuse(param: string, what: string): void {
    this.nativeOnly ??= invalidRequest(this.refusal(param, what), param, 'unsupported_parameter');
  }
}
