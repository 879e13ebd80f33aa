// The source-map worker's entry (map-pool.ts starts it). A worker thread does not always inherit
// its parent's TypeScript loader (a test runner's is its own): tsx is registered here.
import { register } from 'tsx/esm/api';

register();
await import('./map-worker.ts');
