import { SERVER_READ_LIMITS, type ReadLimits } from '@devtrail/column-store';

/**
 * Read limits for in-process stores in suites that are not about time: the default limits'
 * rows and bytes, and 30 s in place of the embedded mode's 500 ms, which a loaded machine can
 * reach with any read (the time bound's own suites are tenant-attacks and the column store's
 * contract).
 */
export const UNHURRIED_READS: ReadLimits = { ...SERVER_READ_LIMITS, maxExecutionMs: 30_000 };
