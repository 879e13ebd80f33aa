export { Failure, isRetryable, type Backend } from './failure.ts';
export { LimitReached } from './limit-reached.ts';
export { reachability, type LogFn, type Reachability } from './reachability.ts';
