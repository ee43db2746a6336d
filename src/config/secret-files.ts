import { readFileSync } from 'node:fs';

/**
 * Settings that hold secrets. Each may instead be read from a file named by `<NAME>_FILE` (a
 * mounted secret of the orchestrator), so the value never sits in the environment or an image.
 */
export const SECRET_SETTINGS = [
  'CONSOLE_SESSION_SECRET',
  'KEY_ENCRYPTION_SECRET',
  'METRICS_TOKEN',
  'SMTP_URL',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
] as const;

/**
 * The environment with each secret's `_FILE` read in: the file's content without trailing
 * whitespace (its final line break). Both the value and its file set, or an unreadable file, is a problem (named, never the value).
 */
export function withSecretFiles(
  source: NodeJS.ProcessEnv,
  names: readonly string[] = SECRET_SETTINGS,
): { readonly env: NodeJS.ProcessEnv; readonly problems: string[] } {
  const env = { ...source };
  const problems: string[] = [];
  for (const name of names) {
    const file = source[`${name}_FILE`];
    if (file === undefined || file === '') continue;
    if (source[name] !== undefined && source[name] !== '') {
      problems.push(`${name}_FILE: set together with ${name}; set one`);
      continue;
    }
    try {
      env[name] = readFileSync(file, 'utf8').trimEnd();
    } catch (error) {
      problems.push(`${name}_FILE: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  return { env, problems };
}
