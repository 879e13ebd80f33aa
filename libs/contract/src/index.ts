export * from './envelope.ts';
export * from './topics.ts';
export * from './deletions.ts';
