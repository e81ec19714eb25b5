import { microUsdToUsd } from '@chat-relay/contract';

/** Micro-USD as a form shows it for editing: plain dollars without trailing zeros (`1.25`, `10`). */
export const microToUsdInput = (micro: number | null | undefined): string =>
  micro === null || micro === undefined ? '' : microUsdToUsd(micro).replace(/\.?0+$/, '');
