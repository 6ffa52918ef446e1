import { KeyMisses } from '../../src/domain/accounts/key-misses';

describe('KeyMisses (D24)', () => {
  let now = 0;
  const clock = () => now;

  it('believes a miss only for its time to live, so that a key issued since is soon looked up', () => {
    now = 1_000;
    const misses = new KeyMisses(15_000, 10, clock);
    misses.add('a');
    now += 14_999;
    expect(misses.has('a')).toBe(true);
    now += 1;
    expect(misses.has('a')).toBe(false);
    expect(misses.has('never-missed')).toBe(false);
  });

  it('holds at most its bound, forgetting the oldest miss first, a repeated one counted as young', () => {
    now = 0;
    const misses = new KeyMisses(15_000, 3, clock);
    for (const hash of ['a', 'b', 'c']) misses.add(hash);
    misses.add('a');
    misses.add('d');
    expect(['a', 'b', 'c', 'd'].map((hash) => misses.has(hash))).toEqual([true, false, true, true]);
  });
});
