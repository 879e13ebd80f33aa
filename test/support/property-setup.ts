import fc from 'fast-check';
import { SEED } from './property.ts';

// Every property of the run starts from the run's seed; fast-check names the seed and the path
// of a failing case in its message, and DEVTRAIL_TEST_SEED=<seed> replays it.
fc.configureGlobal({ seed: SEED });
