/** How long a miss is believed: a key issued since (approval, regeneration, by any process) waits at most this. */
export const KEY_MISS_TTL_MS = 15_000;
const MAX_MISSES = 10_000;

/**
 * Key hashes that named no account or staff member a moment ago (D24): a client repeating a bad key is answered
 * from here, without a database look-up. Bounded, the oldest miss forgotten first, and short-lived, so that it
 * never has to be told when a key is issued.
 */
export class KeyMisses {
  private readonly missedAt = new Map<string, number>();

  constructor(
    private readonly ttlMs = KEY_MISS_TTL_MS,
    private readonly maxEntries = MAX_MISSES,
    private readonly now: () => number = Date.now,
  ) {}

  has(hash: string): boolean {
    const at = this.missedAt.get(hash);
    if (at === undefined) return false;
    if (this.now() - at < this.ttlMs) return true;
    this.missedAt.delete(hash);
    return false;
  }

  add(hash: string): void {
    // Deleted first, so that a repeated miss moves to the young end of the map's insertion order.
    this.missedAt.delete(hash);
    if (this.missedAt.size >= this.maxEntries) this.missedAt.delete(this.missedAt.keys().next().value!);
    this.missedAt.set(hash, this.now());
  }
}
