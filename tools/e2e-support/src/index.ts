// What end-to-end suites share: the production relay run as an operator runs it.
export * from './relay-process';
