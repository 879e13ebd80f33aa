import { createPgliteStore } from '../src/index.ts';
import { promptsContract } from './prompts.contract.ts';

promptsContract('PGlite (in-process)', async () => ({ store: await createPgliteStore(), cleanup: async () => {} }));
