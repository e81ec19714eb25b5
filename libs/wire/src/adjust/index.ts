export * from './adjustment';
export * from './adjust-for-model';
export * from './refused-parameter';
export * from './upstream-format';
export * from './reasoning-effort-budgets';
