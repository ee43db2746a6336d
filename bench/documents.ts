// `npm run bench:documents`: the certificate of insurance alone (no HTTP, no outbox, no mail):
// certificates of a real policy rendered one after another in this process (renderPolicyDocument,
// pdf-lib), per language of its brand: µs of CPU and wall time per document, and its bytes. The
// policy is one the bench fixtures issue through the real issuing commit (2 adults, 1 dependent,
// 2 options, brandau), read back as the outbox worker reads it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { catalogueReaderFor } from '../src/catalogue/reader.js';
import { loadConfig } from '../src/config/config.js';
import { connectDatabase } from '../src/db/connect.js';
import { documentLanguagesOf } from '../src/documents/brand-facts.js';
import { renderPolicyDocument, type CertificateFacts } from '../src/documents/certificate.js';
import { documentFactsFor } from '../src/documents/document-facts.js';
import { policyOwnerOf } from '../src/documents/repository.js';
import { findPolicy } from '../src/policies/repository-read.js';
import { freshDatabase } from './harness.js';
import { prepareBenchDatabase } from './seed/database.js';

interface Options {
  count: string;
  out: string;
}

const options = new Command()
  .name('bench:documents')
  .option('--count <n>', 'certificates rendered per language (after a warm-up of a tenth of it)', '500')
  .option('--out <dir>', 'where to write documents.json and documents.md', 'bench/results')
  .parse()
  .opts<Options>();
const count = Number(options.count);
if (!Number.isSafeInteger(count) || count < 1) throw new Error(`--count must be a whole number, got ${options.count}`);

interface LanguageResult {
  readonly language: string;
  readonly documents: number;
  readonly microsecondsPerDocument: number;
  readonly cpuMicrosecondsPerDocument: number;
  readonly documentsPerSecond: number;
  readonly bytes: number;
}

const database = await freshDatabase(false);
const results: LanguageResult[] = [];
let described = '';
try {
  const env = { ...database.env, LOG_LEVEL: 'silent', DEMO_DATA: 'true' };
  const { policyNumbers } = await prepareBenchDatabase(env);
  const db = connectDatabase(loadConfig({ ...process.env, ...env }).database);
  try {
    const policyNumber = policyNumbers[0]!;
    const owner = await policyOwnerOf(db, policyNumber);
    const policy = owner && (await findPolicy(db, { policyNumber, ...owner }));
    if (!policy) throw new Error(`fixture policy ${policyNumber} not found`);
    const snapshot = await catalogueReaderFor(db).snapshot();
    const brand = snapshot.brands.get(policy.brandCode);
    if (!brand) throw new Error(`brand ${policy.brandCode} is not in the catalogue`);
    // The bench's policies carry no screening: the port answers none.
    const noScreenings = { onPolicy: () => Promise.resolve([]) };
    const factsOf = await documentFactsFor(db, snapshot, policy, 'https://bench.example', noScreenings);
    const detail = policy.details[0]!;
    described = `${policy.brandCode} ${policy.policyNumber}, ${detail.travellers.length} travellers, ${detail.dependents.length} dependent(s), ${detail.options.length} options`;
    const measure = async (label: string, facts: CertificateFacts) => {
      let bytes = 0;
      for (let i = 0; i < Math.ceil(count / 10); i++) bytes = (await renderPolicyDocument(facts)).byteLength;
      const cpu = process.cpuUsage();
      const started = performance.now();
      for (let i = 0; i < count; i++) await renderPolicyDocument(facts);
      const seconds = (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      const result = {
        language: label,
        documents: count,
        microsecondsPerDocument: (seconds * 1e6) / count,
        cpuMicrosecondsPerDocument: (used.user + used.system) / count,
        documentsPerSecond: count / seconds,
        bytes,
      };
      results.push(result);
      process.stderr.write(`${label}: ${result.microsecondsPerDocument.toFixed(0)} µs per certificate\n`);
    };
    const factsIn = (language: CertificateFacts['language'], of = detail): CertificateFacts => {
      const facts = factsOf(detail, language);
      return {
        ...facts,
        policy: { ...policy, details: policy.details.map((d) => (d === detail ? of : d)) },
        detail: of,
      };
    };
    const languages = documentLanguagesOf(brand);
    for (const language of languages) await measure(language, factsIn(language));
    // The same certificate with a Chinese and an Arabic traveller beside a Latin one: three more
    // faces shaped, subset and embedded.
    const [first, second, ...others] = detail.travellers;
    const scripts = {
      ...detail,
      travellers: [
        { ...first!, title: undefined, firstName: '小龍', surname: '李' },
        { ...second!, title: undefined, firstName: 'محمد', surname: 'علي' },
        ...others,
      ],
    };
    await measure(`${languages[0]} (Chinese and Arabic names beside a Latin one)`, factsIn(languages[0]!, scripts));
  } finally {
    await db.destroy();
  }
} finally {
  await database.drop();
}

const report = {
  startedAt: new Date().toISOString(),
  machine: { cores: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', node: process.version },
  policy: described,
  results,
};
const markdown = [
  '# Certificate render micro-benchmark',
  '',
  `${report.startedAt} · ${report.machine.cores} cores (${report.machine.cpu}) · Node ${report.machine.node} · ` +
    `policy ${described} · renderPolicyDocument (pdf-lib) in one process, one after another`,
  '',
  '| language | certificates | µs per certificate | CPU µs per certificate | certificates/s | bytes |',
  '|---|---:|---:|---:|---:|---:|',
  ...results.map(
    (r) =>
      `| ${r.language} | ${r.documents} | ${r.microsecondsPerDocument.toFixed(0)} | ${r.cpuMicrosecondsPerDocument.toFixed(0)} | ${r.documentsPerSecond.toFixed(0)} | ${r.bytes} |`,
  ),
  '',
].join('\n');
mkdirSync(options.out, { recursive: true });
writeFileSync(join(options.out, 'documents.json'), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(options.out, 'documents.md'), markdown);
process.stdout.write(markdown);
