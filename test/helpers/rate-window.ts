import { sleep } from './poll';

/**
 * Budgets follow clock windows (D16): a test that counts what a budget has left starts with at least `needMs` left
 * in one, so that it cannot end halfway through (each takes well under a second; the processes' sync test asks for
 * more).
 */
export async function earlyInWindow(windowMs = 60_000, needMs = 5_000): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < needMs) await sleep(left + 50);
}
