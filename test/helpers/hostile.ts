import fc from 'fast-check';
import { gzipSync } from 'node:zlib';

/** One seed for every fuzz test, so a failure in CI replays exactly on a laptop. */
export const FUZZ_SEED = 20261122;

/** Dates that look right and name no real day: a service must refuse them, not move them (D25). */
export const IMPOSSIBLE_DATES = [
  '2031-02-30T09:30:00Z',
  '2031-13-01T09:30:00Z',
  '2031-04-31T09:30:00+00:00',
  '2031-06-01T24:00:00Z',
  '2029-02-29T09:30:00-05:00',
];

/** C0 controls (tab and line breaks aside) and lone surrogates: text PostgreSQL cannot store as written. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const isUnstorable = (text: string): boolean => /[\x00-\x08\x0B\x0C\x0E-\x1F]|\p{Surrogate}/u.test(text);

/** Text with at least one character PostgreSQL refuses or could only store mangled, anywhere in it. */
export const unstorableText: fc.Arbitrary<string> = fc
  .tuple(
    fc.string({ maxLength: 12 }),
    fc.constantFrom(
      '\u0000',
      '\u0001',
      '\u0008',
      '\u000b',
      '\u000c',
      '\u001b',
      '\u001f',
      '\uD800',
      '\uDBFF',
      '\uDC00',
      '\uDFFF',
    ),
    fc.string({ maxLength: 12 }),
  )
  .map(([before, bad, after]) => before + bad + after);

/** Text an adversarial client sends (D25): control characters, lone surrogates, impossible dates, odd scripts. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '\u0000',
    'Matter\u0000114',
    '\u0001\u0002\u001b[31m',
    '\uD800',
    'ab\uDFFFcd',
    '\uFFFF\uFFFE',
    '\u202Egnp.exe',
    ...IMPOSSIBLE_DATES,
    '2027-02-28T09:30:00+99:99',
    '0000-00-00T00:00:00Z',
    "'; DROP TABLE orders; --",
    '{"$ne":null}',
    '%00',
    '%ff',
    '../../etc/passwd',
    'NaN',
    '-0',
    '1e309',
    ' ',
    '',
    'x'.repeat(3000),
    '漢字かなカナ한글',
    '🧑🏽‍⚖️',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  unstorableText,
);

/** Any JSON value, hostile strings included: what a client may put where the schema wants something else. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  fc.integer({ min: -2_147_483_649, max: 2_147_483_649 }),
  fc.constantFrom(0, -1, 1.5, 1e300, -1e-300, Number.MAX_SAFE_INTEGER + 2, true, false, null),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.array(hostileString, { maxLength: 3 }),
  fc.dictionary(hostileString, hostileString, { maxKeys: 3 }),
);

/**
 * A path segment as sent on the wire: valid and invalid percent-encoding (`%ff`, `%uD800`, overlong `%C0%AE`,
 * an encoded surrogate), encoded control characters, and any text fully percent-encoded as UTF-8.
 */
export const hostilePathSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '%ff',
    '%uD800',
    '%C0%AE',
    '%00',
    '%E0%80%80',
    '%ED%A0%80',
    '%',
    '%%',
    '%2',
    '%zz',
    '%0a',
    '%7f',
    'a%00b',
    '..',
    '%2e%2e',
    '%2F',
    '%20',
  ),
  fc.uuid(),
  hostileString.filter((s) => s.length > 0).map(percentEncode),
);

/** Every byte of the UTF-8 form percent-encoded (a lone surrogate becomes U+FFFD, as any client would send it). */
export function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0').toUpperCase()}`).join('');
}

/** A JSON object nested `depth` levels deep. */
export const deeplyNested = (depth: number): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/**
 * Issue 27: a chain of `levels` fragments on `on`, each spreading the one before twice (`spread` writes the two
 * spreads, as plain spreads by default), over `first`; selected by `query` with `...TOP`. Expanded, it selects
 * `first` 2^levels times, in about 40 bytes a level.
 */
export function fragmentChain(
  levels: number,
  {
    on = 'Query',
    first = 'languages { code }',
    spread = (name: string) => `...${name} ...${name}`,
    query = (top: string) => `{ ${top} }`,
  } = {},
): string {
  const fragments = [`fragment F0 on ${on} { ${first} }`];
  for (let level = 1; level <= levels; level += 1)
    fragments.push(`fragment F${level} on ${on} { ${spread(`F${level - 1}`)} }`);
  return `${query(`...F${levels}`)} ${fragments.join(' ')}`;
}

/**
 * Bodies that say they are compressed and do not decompress: garbage under each coding, and a gzip body cut short.
 * Each must be answered 400 `Malformed request body.` (D2), never with zlib's own words.
 */
export const UNDECODABLE_BODIES: { encoding: string; body: Buffer }[] = [
  ...['gzip', 'deflate', 'br', 'GZIP'].map((encoding) => ({
    encoding,
    body: Buffer.from('this is not compressed at all'),
  })),
  { encoding: 'gzip', body: gzipSync('{"query":"{ languages { code } }"}').subarray(0, 15) },
];

/** UNDECODABLE_BODIES and random bytes said to be gzip or deflate (never gzip's magic number): 400 whatever they hold. */
export const undecodableBody: fc.Arbitrary<{ encoding: string; body: Buffer }> = fc.oneof(
  fc.constantFrom(...UNDECODABLE_BODIES),
  fc
    .tuple(
      fc.constantFrom('gzip', 'deflate'),
      fc.uint8Array({ minLength: 1, maxLength: 2000 }).filter((bytes) => bytes[0] !== 0x1f),
    )
    .map(([encoding, bytes]) => ({ encoding, body: Buffer.from(bytes) })),
);

/** Bearer tokens that name no one: keys of both deployments' shapes and staff tokens, made up, and plain junk. */
export const badCredential: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(fc.constantFrom('ltk_test_', 'ltk_live_', 'ltk_staff_'), fc.stringMatching(/^[A-Za-z0-9]{40}$/))
    .map(([prefix, rest]) => `Bearer ${prefix}${rest}`),
  fc.stringMatching(/^[A-Za-z0-9_]{1,200}$/).map((token) => `Bearer ${token}`),
  hostileString.map((text) => text.replace(/[^\x20-\x7e]/g, '')),
);
