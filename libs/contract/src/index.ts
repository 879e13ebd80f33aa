export * from './envelope.ts';
export * from './decode-error.ts';
export * from './event-ids.ts';
export * from './as-sent.ts';
export * from './decode-message.ts';
export * from './topics.ts';
export * from './deletions.ts';
