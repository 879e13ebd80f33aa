import { createPgliteStore } from '../src/index.ts';
import { relationalStoreContract } from './relational-store.contract.ts';

relationalStoreContract('PGlite (in-process)', async () => ({ store: await createPgliteStore(), cleanup: async () => {} }));
