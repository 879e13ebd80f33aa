export * from './envelope.ts';
export * from './topics.ts';
