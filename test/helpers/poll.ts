export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reads `read` every `intervalMs` until `done` holds for what it returned, and returns that value; at the deadline,
 * fails with `failure` of the last value read. For a state another process reaches in its own time: a fixed sleep
 * is either too long or, on a busy machine, too short.
 */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  options: { failure: (last: T) => string; timeoutMs?: number; intervalMs?: number },
): Promise<T> {
  const { timeoutMs = 30_000, intervalMs = 100 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${options.failure(value)} after ${timeoutMs} ms`);
    await sleep(intervalMs);
  }
}
