import type { Command } from 'commander';
import { loadConfig } from '../config/config.js';
import { connectDatabase } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { validateCatalogue } from './compile.js';
import { importCatalogue } from './import.js';
import { formatProblem } from './load.js';

const DEFAULT_DIR = 'catalogue';

async function validate(dir: string): Promise<void> {
  const { catalogue, problems } = await validateCatalogue(dir);
  for (const problem of problems) process.stderr.write(`${formatProblem(problem)}\n`);
  if (!catalogue) {
    process.stderr.write(`${problems.length} problem(s); the catalogue is refused.\n`);
    process.exitCode = 1;
    return;
  }
  const plans = catalogue.brands.reduce((n, b) => n + b.plans.length, 0);
  process.stdout.write(`Valid: ${catalogue.brands.length} brands, ${plans} plan versions, ${catalogue.destinations.length} destinations.\n`);
}

async function runImport(dir: string): Promise<void> {
  const db = connectDatabase(loadConfig().database);
  try {
    await migrateToLatest(db);
    const outcome = await importCatalogue(db, dir);
    if (outcome.kind === 'invalid') {
      for (const problem of outcome.problems) process.stderr.write(`${formatProblem(problem)}\n`);
      process.stderr.write(`${outcome.problems.length} problem(s); nothing was imported.\n`);
      process.exitCode = 1;
      return;
    }
    process.stdout.write(
      outcome.kind === 'unchanged'
        ? `Unchanged: catalogue version ${outcome.versionId} already holds this content.\n`
        : `Imported catalogue version ${outcome.versionId} (${outcome.contentHash.slice(0, 12)}).\n`,
    );
  } finally {
    await db.destroy();
  }
}

/** `catalogue validate [dir]` and `catalogue import [dir]`. */
export function registerCatalogueCommands(program: Command): void {
  const catalogue = program.command('catalogue').description('Check and load the product catalogue (YAML files under catalogue/).');
  catalogue
    .command('validate')
    .argument('[dir]', 'catalogue folder', DEFAULT_DIR)
    .description('Check every catalogue file and cross-reference; print each problem as file:line at path: reason. Exit 1 if any.')
    .action(validate);
  catalogue
    .command('import')
    .argument('[dir]', 'catalogue folder', DEFAULT_DIR)
    .description('Validate, then store the catalogue as a new version in one transaction (no new version when the content is unchanged).')
    .action(runImport);
}
