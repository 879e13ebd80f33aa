import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../support/root.ts';
import { STACK_REQUIRED } from '../../support/stack.ts';
import type { EngineChoice } from '../src/index.ts';

// The engines the stand-in's suites run on: today's chDB, and the floor when its venv is
// installed (deploy/scripts/clickhouse-floor.sh install, which `make test` runs); under
// DEVTRAIL_REQUIRE_STACK=1 a missing venv fails instead of skipping.
const FLOOR_PYTHON = join(ROOT, '.devtrail/clickhouse-floor-venv/bin/python');
const floorMissing = existsSync(FLOOR_PYTHON) ? undefined : 'the floor venv is not installed: deploy/scripts/clickhouse-floor.sh install';
if (floorMissing && STACK_REQUIRED) throw new Error(`DEVTRAIL_REQUIRE_STACK=1 but ${floorMissing}`);

export interface EngineCase {
  choice: EngineChoice;
  /** Why the suite skips this engine, if it does. */
  skip?: string;
}

export const ENGINES: EngineCase[] = [{ choice: { name: 'chdb' } }, { choice: { name: 'floor', python: FLOOR_PYTHON }, skip: floorMissing }];

/** A suite's title for an engine, with the reason when it skips. */
export const titled = (title: string, { choice, skip }: EngineCase) => `${title} (${choice.name} engine${skip ? `; skipped: ${skip}` : ''})`;
