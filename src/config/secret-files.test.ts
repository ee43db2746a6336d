import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { configProblemsOf } from '../../test/helpers/config-problems.js';

const dir = mkdtempSync(join(tmpdir(), 'secret-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const secretFile = (name: string, content: string) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

describe('secrets from files (<NAME>_FILE)', () => {
  it('reads the value from the file, without its final line break', () => {
    const config = loadConfig({
      METRICS_TOKEN_FILE: secretFile('metrics', 'metrics-token-from-a-file\n'),
      SMTP_URL_FILE: secretFile('smtp', 'smtp://user:pass@127.0.0.1:2525'),
    });
    expect(config.metricsToken).toBe('metrics-token-from-a-file');
    expect(config.mail).toEqual({ transport: 'smtp', smtpUrl: 'smtp://user:pass@127.0.0.1:2525' });
  });

  it('refuses a file that cannot be read, or a value set twice, naming the setting and never the value', () => {
    const value = 'metrics-token-set-twice';
    const problems = configProblemsOf({
      METRICS_TOKEN: value,
      METRICS_TOKEN_FILE: secretFile('twice', value),
      KEY_ENCRYPTION_SECRET_FILE: join(dir, 'missing'),
    });
    expect(problems).toEqual([
      'KEY_ENCRYPTION_SECRET_FILE: cannot be read (ENOENT)',
      'METRICS_TOKEN_FILE: set together with METRICS_TOKEN; set one',
    ]);
    expect(problems.join(' ')).not.toContain(value);
  });

  it('checks what the file holds like any other value', () => {
    expect(configProblemsOf({ METRICS_TOKEN_FILE: secretFile('short', 'short') })).toEqual([
      expect.stringMatching(/^METRICS_TOKEN: /),
    ]);
  });
});
