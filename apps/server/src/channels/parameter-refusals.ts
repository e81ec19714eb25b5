import type { ParameterRefusal } from '@chat-relay/wire';

/** A parameter a channel's upstream refused by name for one of its models, as the API shows it. */
export interface RememberedRefusal extends ParameterRefusal {
  /** The upstream model name (after the channel's mapping). */
  model: string;
  /** When it was first refused (ISO). */
  since: string;
}

/** Models remembered per channel, and refusals per model: a channel's upstream names a handful at most. */
const MODELS_PER_CHANNEL = 64;
const REFUSALS_PER_MODEL = 16;

/**
 * What each channel's upstream refused by name, per upstream model (issue 28): a parameter the
 * relay adapted and the upstream answered a 400 naming, remembered so the next request leaves it
 * out up front instead of paying the round trip again. This instance's memory only, bounded,
 * and forgotten when the channel is changed (its base URL or mapping may now point elsewhere).
 */
export class ParameterRefusals {
  private readonly byChannel = new Map<number, Map<string, RememberedRefusal[]>>();

  /** The refusals for this channel and upstream model; undefined (the usual case) when there are none. */
  of(channelId: number, model: string): readonly ParameterRefusal[] | undefined {
    return this.byChannel.get(channelId)?.get(model);
  }

  /** Records a refusal; false when it was known already. */
  remember(channelId: number, model: string, refusal: ParameterRefusal, now = new Date()): boolean {
    let models = this.byChannel.get(channelId);
    if (!models) this.byChannel.set(channelId, (models = new Map()));
    let refusals = models.get(model);
    if (!refusals) {
      // The oldest model is forgotten first: a channel serving many models keeps its recent ones.
      if (models.size >= MODELS_PER_CHANNEL) models.delete(models.keys().next().value as string);
      models.set(model, (refusals = []));
    }
    const known = refusals.findIndex((held) => held.field === refusal.field);
    const entry: RememberedRefusal = { ...refusal, model, since: now.toISOString() };
    if (known >= 0) {
      const held = refusals[known];
      // A lower limit for the same field replaces the one held.
      if (!held || refusal.atMost === undefined || (held.atMost !== undefined && held.atMost <= refusal.atMost)) return false;
      refusals[known] = { ...entry, since: held.since };
      return true;
    }
    if (refusals.length >= REFUSALS_PER_MODEL) return false;
    // A new array: a request that read the old one keeps what it read.
    models.set(model, [...refusals, entry]);
    return true;
  }

  /** Everything remembered for the channel, for its health in the API. */
  list(channelId: number): RememberedRefusal[] {
    const models = this.byChannel.get(channelId);
    return models ? [...models.values()].flat() : [];
  }

  /** The channel changed (or is gone): what its upstream refused is no longer known. */
  forget(channelId: number): void {
    this.byChannel.delete(channelId);
  }
}
