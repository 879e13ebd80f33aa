export { startStandin, type Standin, type StandinOptions } from './standin.ts';
