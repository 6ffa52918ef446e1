import { FairQueue } from '../../src/documents/sandbox/fair-queue';

describe('FairQueue', () => {
  it('serves lanes in turn, one item of a lane at a time', () => {
    const queue = new FairQueue<string>(10);
    for (const item of ['a1', 'a2', 'a3']) queue.push('a', item);
    queue.push('b', 'b1');
    queue.push('c', 'c1');

    const first = queue.take()!;
    expect(first).toEqual({ lane: 'a', item: 'a1' });
    // Lane a runs a1: the next child takes b, then c, and nothing of a until a1 is done.
    expect(queue.take()).toEqual({ lane: 'b', item: 'b1' });
    expect(queue.take()).toEqual({ lane: 'c', item: 'c1' });
    expect(queue.take()).toBeUndefined();
    queue.done('a');
    queue.push('b', 'b2');
    // a went to the back when it was served, but it is the only lane with work that runs nothing.
    expect(queue.take()).toEqual({ lane: 'a', item: 'a2' });
    queue.done('b');
    expect(queue.take()).toEqual({ lane: 'b', item: 'b2' });
  });

  it('a flooding lane does not delay a newcomer by more than one item', () => {
    const queue = new FairQueue<string>(100);
    for (let i = 0; i < 50; i++) queue.push('flood', `f${i}`);
    const running = queue.take()!;
    queue.push('quiet', 'q1'); // arrives while the flood's first item runs
    queue.done(running.lane);
    expect(queue.take()).toEqual({ lane: 'quiet', item: 'q1' });
    expect(queue.take()).toEqual({ lane: 'flood', item: 'f1' });
  });

  it('refuses past the per-lane cap, and drains everything waiting', () => {
    const queue = new FairQueue<number>(2);
    expect(queue.push('a', 1)).toBe(true);
    expect(queue.push('a', 2)).toBe(true);
    expect(queue.push('a', 3)).toBe(false);
    expect(queue.push('b', 4)).toBe(true);
    expect(queue.drain().sort()).toEqual([1, 2, 4]);
    expect(queue.take()).toBeUndefined();
  });
});
