import { join } from 'node:path';

/** True when running the tsc output (dist/), false under ts-jest where the TypeScript sources run directly. */
export const RUNNING_COMPILED = !__filename.endsWith('.ts');

/** The repository root, whichever of the two we are running. */
export const REPO_ROOT = RUNNING_COMPILED ? join(__dirname, '..', '..', '..') : join(__dirname, '..', '..');

/** Migrations are written in TypeScript under migrations/ and run from their compiled copies in dist/. */
export const MIGRATIONS_SOURCE_DIR = join(REPO_ROOT, 'migrations');
export const MIGRATIONS_RUN_DIR = RUNNING_COMPILED ? join(REPO_ROOT, 'dist', 'migrations') : MIGRATIONS_SOURCE_DIR;

/** The document sandbox's children run JavaScript: always the compiled worker, under jest too (`npm test` builds first). */
export const SANDBOX_WORKER_SCRIPT = join(REPO_ROOT, 'dist', 'src', 'documents', 'sandbox', 'sandbox.worker.js');
