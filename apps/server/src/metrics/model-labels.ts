/** The label of a model that never reached a channel and was not seen on one before (a typo, a probe). */
export const UNROUTED_MODEL = '_unrouted';
/** The label of any further model once `maxModels` have their own. */
export const OTHER_MODEL = '_other';
export const DEFAULT_MAX_MODELS = 200;
const MAX_MODEL_LENGTH = 128;

/**
 * Requested model names as label values, bounded: a caller chooses the name, so only a name some
 * request was routed with (a channel serves it) gets a label of its own, and at most `maxModels`
 * of them; the rest share `_unrouted` or `_other`. A request without a model has the label ''.
 */
export class ModelLabels {
  private readonly known = new Set<string>();

  constructor(private readonly maxModels = DEFAULT_MAX_MODELS) {}

  labelOf(model: string | null, routed: boolean): string {
    if (model === null) return '';
    if (this.known.has(model)) return model;
    if (!routed) return UNROUTED_MODEL;
    if (this.known.size >= this.maxModels || model.length > MAX_MODEL_LENGTH) return OTHER_MODEL;
    this.known.add(model);
    return model;
  }
}
