// The command line of a bench script: its options declared as a table for commander.
import { Command } from 'commander';

/** One option: its flags (`--count <n>`, or a bare `--postgres` switch), what it does, its default. */
export type BenchOption = readonly [flags: string, description: string, defaultValue?: string];

/**
 * The command line of the bench script `name` (`--help` lists its options and exits); the script
 * parses it into its own options type (`.parse().opts<Options>()`). Values stay as commander gives
 * them (strings, or `true` for a switch): each script reads its own numbers.
 */
export function benchCommand(name: string, options: readonly BenchOption[], description?: string): Command {
  const command = new Command().name(name);
  if (description !== undefined) command.description(description);
  for (const [flags, text, defaultValue] of options) command.option(flags, text, defaultValue);
  return command;
}
