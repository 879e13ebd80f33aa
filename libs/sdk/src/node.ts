// Node entry (export condition "node"): the browser-safe API plus
// AsyncLocalStorage, so the active span and request follow awaits.
import { installNodeAsyncContext } from './node/install-async-context.js';

installNodeAsyncContext();

export * from './index.js';
