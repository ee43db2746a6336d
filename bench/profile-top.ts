// `npx tsx bench/profile-top.ts <file.cpuprofile> [n] [--skip <seconds>]`: the top frames of a V8
// CPU profile (from `npm run bench -- --cpu-prof <dir>`) by self time, and by package/file, as
// text. `--skip` leaves out the first seconds of samples (start-up, module loading) so the shares
// are of the steady state only.
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const skipAt = args.indexOf('--skip');
const skipMicros = skipAt === -1 ? 0 : Number(args.splice(skipAt, 2)[1]) * 1e6;
const [file, count = '25'] = args;
if (!file || !(skipMicros >= 0)) {
  process.stderr.write('usage: profile-top <file.cpuprofile> [n] [--skip <seconds>]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
let elapsed = 0;
profile.samples.forEach((id, i) => {
  elapsed += profile.timeDeltas[i] ?? 0;
  if (elapsed >= skipMicros) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
// Idle time is the server waiting between runs: shares are of the busy time only.
const isIdle = (id: number) => byId.get(id)?.callFrame.functionName === '(idle)';
const total = [...self.entries()].filter(([id]) => !isIdle(id)).reduce((a, [, v]) => a + v, 0);

const where = (url: string) => {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1]!;
  if (url.includes('/src/')) return url.slice(url.indexOf('/src/') + 1);
  return url ? url.replace(/^.*\//, '') : '(native/idle)';
};
const frames = new Map<string, number>();
const places = new Map<string, number>();
for (const [id, time] of self) {
  if (isIdle(id)) continue;
  const { callFrame } = byId.get(id)!;
  const name = `${callFrame.functionName || '(anonymous)'} ${where(callFrame.url)}:${callFrame.lineNumber + 1}`;
  frames.set(name, (frames.get(name) ?? 0) + time);
  places.set(where(callFrame.url), (places.get(where(callFrame.url)) ?? 0) + time);
}
const top = (m: Map<string, number>) =>
  [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(count))
    .map(([k, v]) => `${((v / total) * 100).toFixed(1).padStart(5)} %  ${k}`)
    .join('\n');
// Inclusive time of the project's own functions (src/): where a request's time goes.
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const inclusive = new Map<string, number>();
for (const [id, time] of self) {
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const { callFrame } = byId.get(at)!;
    if (!callFrame.url.includes('/src/')) continue;
    const name = `${callFrame.functionName || '(anonymous)'} ${where(callFrame.url)}:${callFrame.lineNumber + 1}`;
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + time);
  }
}
process.stdout.write(
  `busy ${(total / 1e6).toFixed(1)} s sampled${skipMicros > 0 ? ` after the first ${skipMicros / 1e6} s` : ''}\n\ninclusive time of src/ functions:\n${top(inclusive)}\n\n`,
);
process.stdout.write(
  `total ${(total / 1e6).toFixed(1)} s sampled\n\nself time by frame:\n${top(frames)}\n\nself time by package or file:\n${top(places)}\n`,
);
