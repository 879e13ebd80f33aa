export { Failure, isRetryable, type Backend } from './failure.ts';
export { reachability, type LogFn, type Reachability } from './reachability.ts';
