import { createServer } from 'node:net';

/**
 * README.md's shell blocks, read for the README walk test: each ```sh / ```bash block in order,
 * whether a `<!-- readme-walk: skip (reason) -->` line precedes it, and the expected outputs it shows
 * (comment lines `# {…}`, `# […]`, `# "…"`, `# href=…`, `# status-…` or a bare status such as `# 204` after a
 * command; `…` matches anything).
 */
export interface ReadmeBlock {
  readonly index: number;
  readonly line: number;
  readonly code: string;
  readonly skip?: string;
  readonly expected: readonly string[];
}

const SKIP = /^<!--\s*readme-walk:\s*skip\s*\((.+)\)\s*-->$/;
const EXPECTED = /^#\s*([{["].*|href=.*|status-.*|\d{3})$/;

export function readmeBlocks(markdown: string): ReadmeBlock[] {
  const lines = markdown.split('\n');
  const blocks: ReadmeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(\w*)\s*$/.exec(lines[i] ?? '');
    if (!fence) continue;
    const end = lines.indexOf('```', i + 1);
    if (end < 0) throw new Error(`README.md:${i + 1}: unclosed code block`);
    if (fence[1] === 'sh' || fence[1] === 'bash') {
      const body = lines.slice(i + 1, end);
      let before = i - 1;
      while (before >= 0 && (lines[before] ?? '').trim() === '') before--;
      const skip = SKIP.exec((lines[before] ?? '').trim())?.[1];
      const expected = body.flatMap((l) => {
        const m = EXPECTED.exec(l.trim());
        return m?.[1] ? [m[1]] : [];
      });
      blocks.push({ index: blocks.length, line: i + 1, code: body.join('\n'), skip, expected });
    }
    i = end;
  }
  return blocks;
}

/** `…` is a wildcard; everything else must appear as written, the whole line. */
export function expectedPattern(expected: string): RegExp {
  const parts = expected.split('…').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*?')}$`);
}

/**
 * Matches each expected line, in order, against the block's output lines after the previous match.
 * Returns the expected lines that found no match.
 */
export function unmatched(expected: readonly string[], output: readonly string[]): string[] {
  const missing: string[] = [];
  let from = 0;
  for (const line of expected) {
    const pattern = expectedPattern(line);
    const at = output.findIndex((o, k) => k >= from && pattern.test(o.trim()));
    if (at < 0) missing.push(line);
    else from = at + 1;
  }
  return missing;
}

/** A port nothing listens on now (the walk's webhook receiver takes it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
