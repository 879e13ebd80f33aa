export { runCommand, CliError, USAGE, type CliContext } from './commands.ts';
