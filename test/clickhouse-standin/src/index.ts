export type { EngineChoice } from './engine.ts';
export { startStandin, type Standin, type StandinOptions } from './standin.ts';
