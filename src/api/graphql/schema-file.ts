import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { REPO_ROOT } from '../../db/paths';
import { buildGraphQLSchema } from './schema';

/**
 * `schema:emit` writes schema/schema.graphql from the code; `schema:check` fails when the committed file
 * differs from what the code builds (D14). Sorted, so the file only changes when the schema does.
 */
const SCHEMA_FILE = join(REPO_ROOT, 'schema', 'schema.graphql');

async function main(mode: string | undefined): Promise<number> {
  const printed = `${printSchema(lexicographicSortSchema(await buildGraphQLSchema()))}\n`;
  if (mode === '--check') {
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    if (committed === printed) return 0;
    console.error('schema/schema.graphql is stale: run `npm run schema:emit` and commit the result.');
    return 1;
  }
  writeFileSync(SCHEMA_FILE, printed);
  console.log(`Wrote ${SCHEMA_FILE}`);
  return 0;
}

main(process.argv[2]).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
