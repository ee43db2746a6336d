import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { Command, Option } from 'commander';
import type { AppConfig } from '../config/config.js';
import type { AppContext } from '../context.js';
import { connectDatabase } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { createPartner, createUser, deactivate, reactivate, switchOnAccountPurchase } from './accounts.js';
import { rotateSigningKey } from './keys.js';
import { addPartnerBrandCode, partnerBrandCodes, removePartnerBrandCode } from './brand-codes.js';

export interface AuthCliOptions {
  /** Reads the configuration (src/cli.ts exits with the problems listed when it is invalid). */
  readonly config: () => AppConfig;
  readonly stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly stdout?: Writable;
}

async function withContext<T>(options: AuthCliOptions, work: (context: AppContext) => Promise<T>): Promise<T> {
  const config = options.config();
  const db = connectDatabase(config.database);
  try {
    await migrateToLatest(db);
    return await work({ config, db, clock: () => new Date() });
  } finally {
    await db.destroy();
  }
}

async function readStdin(stdin: NonNullable<AuthCliOptions['stdin']>): Promise<string> {
  if (stdin.isTTY)
    throw new Error(
      'Pipe the password on standard input, or use --password-file or --generate-password (never an argument).',
    );
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** Operator commands of the identity area: partners, users, signing keys. */
export function registerAuthCommands(program: Command, options: AuthCliOptions): void {
  const out = (line: string) => (options.stdout ?? process.stdout).write(`${line}\n`);
  const stdin = options.stdin ?? process.stdin;

  const partner = program.command('partner').description('Manage partners.');
  partner
    .command('create')
    .description('Create a partner; prints its id.')
    .requiredOption('--code <code>', 'partner code, 2–32 of A-Z 0-9 _ -')
    .requiredOption('--name <name>', 'display name')
    .option('--on-account', 'allow on-account purchases (PartnerSummary.isOnAccountPurchaseEnabled)')
    .action(async (o: { code: string; name: string; onAccount?: boolean }) => {
      const id = await withContext(options, (c) =>
        createPartner(c, { code: o.code, name: o.name, isOnAccountPurchaseEnabled: o.onAccount === true }),
      );
      out(`Created partner ${o.code} (id ${id}).`);
    });
  const onAccount = partner
    .command('on-account')
    .description(
      "Allow or stop a partner's on-account purchases; read on every purchase, so the next request follows it.",
    );
  for (const [action, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const)
    onAccount
      .command(`${action} <partnerCode>`)
      .description(
        enabled
          ? 'The partner may buy with paymentMethod ON_ACCOUNT.'
          : 'New on-account purchases are refused; changes of policies already on account stay on account.',
      )
      .action(async (code: string) => {
        await withContext(options, (c) => switchOnAccountPurchase(c, code, enabled));
        out(`On-account purchases ${enabled ? 'enabled' : 'disabled'} for partner ${code}.`);
      });

  const brandCode = partner
    .command('brand-code')
    .description(
      "A partner's own brand codes: accepted by POST /users/{brandCode}/token in place of the brand they map to, for that partner's users only.",
    );
  brandCode
    .command('add <partnerCode> <code>')
    .description('Map a new code (2–32 of a-z 0-9 -, starting with a letter; unique across partners) to a brand.')
    .requiredOption('--brand <brand>', 'the brand the code stands for: brandau, brandnz, directau or nomad')
    .action(async (partnerCode: string, code: string, o: { brand: string }) => {
      const added = await withContext(options, (c) =>
        addPartnerBrandCode(c, { partnerCode, code, brandCode: o.brand }),
      );
      out(`Brand code ${added.code} of partner ${partnerCode} now stands for ${added.brandCode}.`);
    });
  brandCode
    .command('remove <partnerCode> <code>')
    .description('Stop accepting the code (tokens already issued with it stay valid until they expire).')
    .action(async (partnerCode: string, code: string) => {
      await withContext(options, (c) => removePartnerBrandCode(c, partnerCode, code));
      out(`Brand code ${code.toLowerCase()} of partner ${partnerCode} removed.`);
    });
  brandCode
    .command('list <partnerCode>')
    .description("The partner's brand codes, one per line: code, then the brand it stands for.")
    .action(async (partnerCode: string) => {
      const codes = await withContext(options, (c) => partnerBrandCodes(c, partnerCode));
      for (const entry of codes) out(`${entry.code}\t${entry.brandCode}`);
      if (codes.length === 0) out(`Partner ${partnerCode} has no brand codes.`);
    });

  const user = program.command('user').description('Manage users.');
  user
    .command('create')
    .description('Create a user. The password comes from standard input or --password-file, never from an argument.')
    .requiredOption('--partner <code>', 'the partner the user belongs to')
    .requiredOption('--login <login>', 'login (usually an e-mail address; compared case-insensitively)')
    .requiredOption('--brand <brand...>', 'brand(s) the user may get tokens for')
    .addOption(
      new Option(
        '--user-type <id>',
        'userTypeId: 1 customer, 2 employee, 3 assistance provider, 4 partner, 5 underwriter',
      ).default('4'),
    )
    .option('--password-file <file>', 'read the password from this file (first line)')
    .option('--generate-password', 'generate a strong password and print it once')
    .action(
      async (o: {
        partner: string;
        login: string;
        brand: string[];
        userType: string;
        passwordFile?: string;
        generatePassword?: boolean;
      }) => {
        const generated = o.generatePassword ? randomBytes(18).toString('base64url') : undefined;
        const password =
          generated ??
          (o.passwordFile
            ? ((await readFile(o.passwordFile, 'utf8')).split(/\r?\n/)[0] ?? '')
            : await readStdin(stdin));
        const id = await withContext(options, (c) =>
          createUser(c, {
            partnerCode: o.partner,
            login: o.login,
            password,
            userTypeId: Number(o.userType),
            brandCodes: o.brand,
          }),
        );
        out(`Created user ${o.login} (id ${id}).`);
        if (generated) out(`Generated password (shown only now): ${generated}`);
      },
    );
  user
    .command('deactivate')
    .description('Deactivate a user: no new tokens, refresh tokens revoked, access tokens refused by the guard.')
    .requiredOption('--login <login>', 'the login')
    .option('--reason <text>', "why, as the operators' audit trail keeps it")
    .action(async (o: { login: string; reason?: string }) => {
      const id = await withContext(options, (c) => deactivate(c, o.login, o.reason));
      out(`Deactivated user ${o.login} (id ${id}).`);
    });
  user
    .command('reactivate')
    .description(
      'Re-enable a deactivated user: the user may get tokens again with the same password; sessions revoked on deactivation stay revoked.',
    )
    .requiredOption('--login <login>', 'the login')
    .option('--reason <text>', "why, as the operators' audit trail keeps it")
    .action(async (o: { login: string; reason?: string }) => {
      const id = await withContext(options, (c) => reactivate(c, o.login, o.reason));
      out(`Reactivated user ${o.login} (id ${id}).`);
    });

  program
    .command('keys')
    .description('Manage token signing keys.')
    .command('rotate')
    .description('Add a new signing key; older keys keep verifying until the tokens they signed have expired.')
    .action(async () => {
      const { kid, retired } = await withContext(options, (c) => rotateSigningKey(c));
      out(`New signing key ${kid}; ${retired} older key(s) retired (still verifying until their tokens expire).`);
    });
}
