// The bench's options that size what is prepared before the clock (supplies) or sold during a row.
import type { Command } from 'commander';
import { SELL_RATE, SUSTAINED_ROW } from './sustained.js';

export interface SupplyOptions {
  changeSupply?: string;
  purchaseSupply?: string;
  screeningSupply?: string;
  sellRate?: string;
}

export function withSupplyOptions(program: Command): Command {
  return program
    .option(
      '--change-supply <per second>',
      'previews prepared per second of load for each change-confirm scenario (default 1500 SQLite, 600 PostgreSQL)',
    )
    .option(
      '--purchase-supply <per second>',
      'ready quotes prepared per second of load for each purchase row (default 1600: twice the highest target)',
    )
    .option(
      '--screening-supply <per second>',
      'screenings prepared per second of load for each screening row (default per row: bench/scenarios-screening.ts)',
    )
    .option(
      '--sell-rate <per second>',
      `purchases per second the ${SUSTAINED_ROW} row sells (default ${SELL_RATE.sqlite} SQLite, ${SELL_RATE.postgres} PostgreSQL)`,
    );
}

const FLAGS: Readonly<Record<keyof SupplyOptions, string>> = {
  changeSupply: '--change-supply',
  purchaseSupply: '--purchase-supply',
  screeningSupply: '--screening-supply',
  sellRate: '--sell-rate',
};

/** Exits 2 with the flag's name when a supply or rate given is not a positive number. */
export function checkSupplyOptions(options: SupplyOptions): void {
  for (const [key, flag] of Object.entries(FLAGS)) {
    const value = options[key as keyof SupplyOptions];
    if (value !== undefined && !(Number(value) > 0)) {
      process.stderr.write(`${flag} must be a positive number, got ${value}\n`);
      process.exit(2);
    }
  }
}
