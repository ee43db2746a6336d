import type { Command } from 'commander';
import { catalogueReaderFor } from '../catalogue/reader.js';
import { loadConfig, type AppConfig } from '../config/config.js';
import { connectDatabase } from '../db/connect.js';
import { failureName } from '../db/refused-values.js';
import { DomainError } from '../kernel/errors.js';
import { minorDigits, toMajor } from '../kernel/money/units.js';
import { recordPayment } from './payments.js';

interface RecordPaymentOptions {
  partner: string;
  brand: string;
  amount: string;
  date: string;
  reference: string;
}

/** Operator commands of the statements area. */
export function registerStatementsCommands(program: Command, config: () => AppConfig = loadConfig): void {
  const statements = program.command('statements').description('Partner statements.');
  statements
    .command('record-payment')
    .description(
      "Record a payment a partner made against its on-account balance under a brand. Idempotent by reference: the same reference again changes nothing (and is refused if its amount or date differ). The date is the day it was received in the brand's time zone: not in the future, not in a closed month.",
    )
    .requiredOption('--partner <code>', 'the partner code, e.g. DEMOA')
    .requiredOption('--brand <code>', 'the brand code, e.g. brandau')
    .requiredOption('--amount <major>', "the amount in the brand's currency, e.g. 1234.50")
    .requiredOption('--date <yyyy-mm-dd>', 'the day it was received')
    .requiredOption('--reference <text>', "the bank's or the partner's reference (1–100 printable ASCII characters)")
    .action(async (options: RecordPaymentOptions) => {
      const settings = config();
      const db = connectDatabase(settings.database);
      try {
        const deps = { db, catalogue: catalogueReaderFor(db), clock: () => new Date() };
        const { payment, created } = await recordPayment(deps, {
          partnerCode: options.partner,
          brandCode: options.brand,
          amount: options.amount,
          receivedOn: options.date,
          reference: options.reference,
        });
        const amount = toMajor(payment.amountMinor, minorDigits(payment.currencyCode));
        process.stdout.write(
          `${JSON.stringify({ created, reference: payment.reference, amount, currencyCode: payment.currencyCode, receivedOn: payment.receivedOn })}\n`,
        );
      } catch (error) {
        // 1: the input must be corrected (named); 2: the command could not run (no database, no catalogue).
        if (error instanceof DomainError) {
          process.stderr.write(`statements record-payment: ${error.code}: ${error.message}\n`);
          process.exitCode = 1;
        } else {
          process.stderr.write(`statements record-payment could not run: ${failureName(error)}\n`);
          process.exitCode = 2;
        }
      } finally {
        await db.destroy();
      }
    });
}
