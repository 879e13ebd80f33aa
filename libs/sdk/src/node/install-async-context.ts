// The only module that imports from Node built-ins; the Node entry points
// load it, the browser build never does.
import { AsyncLocalStorage } from 'node:async_hooks';
import { installAsyncContext } from '../context/context-manager.js';

export function installNodeAsyncContext(): void {
  installAsyncContext(AsyncLocalStorage);
}
