export * from './task-provider';
