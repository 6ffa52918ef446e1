/** Reads and writes: what a hot path's statement count is about (not BEGIN, COMMIT or SET). */
const DATA_STATEMENT = /select|insert|update|delete/i;

/**
 * The SQL a test app's ORM runs, each statement with the request it ran for (the request's id is in its
 * EntityManager's logger context). Counting by request keeps background work (job workers, the rate budget's
 * sync) out of a request's count, whenever it happens to run.
 */
export class StatementLog {
  private readonly entries: { sql: string; requestId?: string }[] = [];

  /** For `startTestApp({ onQuery })`. */
  readonly record = (sql: string, requestId?: string): void => {
    this.entries.push({ sql, requestId });
  };

  /** The data statements run for the request that got `response` (by its X-Request-Id). */
  of(response: { headers: Record<string, string> }): string[] {
    const requestId = response.headers['x-request-id'];
    if (!requestId) throw new Error('The response has no X-Request-Id.');
    return this.entries
      .filter((entry) => entry.requestId === requestId && DATA_STATEMENT.test(entry.sql))
      .map((entry) => entry.sql);
  }
}
