import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';

/** Copies of the repository's catalogue, each with files edited; `removeAll` deletes them (afterAll). */
export function catalogueCopies(): {
  brokenCopy: (file: string, edit: (text: string) => string) => string;
  edit: (dir: string, file: string, edit: (text: string) => string) => void;
  removeAll: () => void;
} {
  const dirs: string[] = [];
  const edit = (dir: string, file: string, change: (text: string) => string) => {
    const path = join(dir, file);
    const before = readFileSync(path, 'utf8');
    const after = change(before);
    expect(after).not.toBe(before);
    writeFileSync(path, after);
  };
  return {
    brokenCopy(file, change) {
      const dir = mkdtempSync(join(tmpdir(), 'catalogue-'));
      dirs.push(dir);
      cpSync('catalogue', dir, { recursive: true });
      edit(dir, file, change);
      return dir;
    },
    edit,
    removeAll() {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}
