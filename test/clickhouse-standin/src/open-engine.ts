import { mkdirSync } from 'node:fs';
import type { Engine, EngineChoice } from './engine.ts';
import { openFloorEngine } from './floor-engine.ts';

/** Opens the chosen engine on `dataDir` (created if missing, reused across restarts). */
export async function openEngine(choice: EngineChoice, dataDir: string): Promise<Engine> {
  mkdirSync(dataDir, { recursive: true });
  if (choice.name === 'floor') return openFloorEngine(dataDir, choice.python);
  // Loaded only when chosen: a floor stand-in's process never loads libchdb.
  const { openChdbEngine } = await import('./chdb-engine.ts');
  return openChdbEngine(dataDir);
}
