import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from './node-flags.js';

describe('the server runs with its Node flags', () => {
  const packageJson = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    scripts: Record<string, string>;
  };

  it('npm start passes every flag to the server process', () => {
    const start = packageJson.scripts.start ?? '';
    for (const flag of SERVER_NODE_FLAGS) expect(start.split(/\s+/)).toContain(flag);
  });

  it('the README shows the compiled form with the same flags', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(`node ${SERVER_NODE_FLAGS.join(' ')} dist/cli.js serve`);
  });
});
