import { otherHolders } from '../db/embedded-postgres-holders';

/**
 * With no DATABASE_URL, the running service's database is the embedded server of its DATA_DIR, which the CLI joins
 * when it is given the same DATA_DIR (`npm start` and `npm run cli` both default to `.data` in the checkout). With
 * another DATA_DIR, or no service running, the CLI would start a database of its own, and what it created there
 * (a sandbox key) would answer 401 against the service: refused before anything is created.
 */
export function assertServiceRunning(dataDir: string): void {
  if (otherHolders(dataDir).length > 0) return;
  throw new Error(
    `No running service uses the embedded database under DATA_DIR=${dataDir}, so no account or key was made. ` +
      'Start the service first (npm start), or give this command the DATA_DIR (or DATABASE_URL) the service runs with.',
  );
}
