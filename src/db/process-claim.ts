import { randomInt } from 'node:crypto';
import { Client } from 'pg';

/**
 * An arbitrary constant: the key space of "this process is alive" advisory locks (the first of their two keys), which
 * `liveProcessIds()` (`src/db/live-processes.ts`) reads.
 */
export const PROCESS_CLAIMS = 724_118_002;

/**
 * This process's mark of life, shared with every process on the database (D25): an advisory lock on its own id,
 * held by a connection of its own for as long as the process lives. PostgreSQL drops the lock when the connection
 * goes, however the process ended, so another process (on any machine) can tell what a dead one left behind:
 * its temporary files and its storage intents.
 */
export class ProcessClaim {
  private released?: Promise<void>;
  /** The statement last handed to the connection: the next waits for it, as one pg client runs one at a time. */
  private last: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly id: number,
    private readonly client: Client,
  ) {}

  static async take(databaseUrl: string): Promise<ProcessClaim> {
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    for (;;) {
      const id = randomInt(1, 2 ** 31 - 1);
      const { rows } = await client.query<{ taken: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS taken', [
        PROCESS_CLAIMS,
        id,
      ]);
      if (rows[0].taken) return new ProcessClaim(id, client);
    }
  }

  /**
   * A statement on the claim's own connection, committed at once: a writer inside a transaction records its
   * intent here without asking the pool for a second connection (which a full pool would never give).
   */
  async execute(sql: string, params: unknown[]): Promise<void> {
    const run = this.last.then(() => this.client.query(sql, params));
    this.last = run.catch(() => undefined);
    await run;
  }

  /** Ends the claim; a second call waits for the first (pg's `end()` called twice never settles). */
  release(): Promise<void> {
    return (this.released ??= this.client.end().catch(() => undefined));
  }
}
