import openapiTS, { astToString } from 'openapi-typescript';

const HEADER = '// Generated from docs/openapi.json by `npm run sdk:generate` (openapi-typescript): do not edit.\n';

/** The SDK's generated types as text: the same in the script and in the drift test. */
export async function generateSdkTypes(document: object): Promise<string> {
  const ast = await openapiTS(document as Parameters<typeof openapiTS>[0], { silent: true });
  return HEADER + astToString(ast);
}
