/** Writes sdk/src/generated/openapi.ts from docs/openapi.json (openapi-typescript); test/sdk checks it. */
import { readFile, writeFile } from 'node:fs/promises';
import { generateSdkTypes } from './sdk-types.js';

const target = new URL('../sdk/src/generated/openapi.ts', import.meta.url);
const document = JSON.parse(await readFile(new URL('../docs/openapi.json', import.meta.url), 'utf8')) as object;
await writeFile(target, await generateSdkTypes(document));
