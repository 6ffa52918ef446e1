/**
 * Work waiting for the document sandbox, in lanes (one per account): lanes take turns round-robin, a lane runs
 * one item at a time, and each lane holds at most `maxWaitingPerLane` items, so one account's flood of
 * documents delays another account's by at most one document per child.
 */
export class FairQueue<T> {
  /** Lanes with waiting items, in turn order (a Map iterates in insertion order). */
  private readonly waiting = new Map<string, T[]>();
  private readonly running = new Set<string>();

  constructor(private readonly maxWaitingPerLane: number) {}

  /** Adds an item to its lane's end; false when the lane is full. */
  push(lane: string, item: T): boolean {
    const items = this.waiting.get(lane) ?? [];
    if (items.length >= this.maxWaitingPerLane) return false;
    items.push(item);
    this.waiting.set(lane, items);
    return true;
  }

  /** The next item of the first lane in turn that runs nothing; that lane then runs it. */
  take(): { lane: string; item: T } | undefined {
    for (const [lane, items] of this.waiting) {
      if (this.running.has(lane)) continue;
      const item = items.shift()!;
      if (!items.length) this.waiting.delete(lane);
      this.running.add(lane);
      return { lane, item };
    }
    return undefined;
  }

  /** The lane's item has ended: the lane may run its next, after every lane that waited meanwhile. */
  done(lane: string): void {
    this.running.delete(lane);
    const items = this.waiting.get(lane);
    if (items) {
      this.waiting.delete(lane);
      this.waiting.set(lane, items);
    }
  }

  /** Removes and returns every waiting item (when none can run). */
  drain(): T[] {
    const items = [...this.waiting.values()].flat();
    this.waiting.clear();
    return items;
  }
}
