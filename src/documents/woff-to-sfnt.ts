import { promisify } from 'node:util';
import { inflate } from 'node:zlib';

const inflateAsync = promisify(inflate);

const WOFF_SIGNATURE = 0x774f4646; // "wOFF"
const HEADER = 44;
const WOFF_ENTRY = 20;
const SFNT_ENTRY = 16;

/**
 * Unwraps a WOFF 1.0 font into the plain TrueType/OpenType (sfnt) file it packs. fontkit reads WOFF itself, but
 * re-inflates a whole table on every glyph it subsets, which makes embedding a large font take seconds; a plain
 * sfnt subsets in milliseconds. Tables are inflated on the thread pool, off the event loop.
 */
export async function woffToSfnt(woff: Buffer): Promise<Buffer> {
  if (woff.length < HEADER || woff.readUInt32BE(0) !== WOFF_SIGNATURE) throw new Error('Not a WOFF 1.0 font.');
  const flavor = woff.readUInt32BE(4);
  const count = woff.readUInt16BE(12);
  const tables = (
    await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const at = HEADER + i * WOFF_ENTRY;
        const [tag, offset, compressed, length, checksum] = [0, 4, 8, 12, 16].map((field) =>
          woff.readUInt32BE(at + field),
        );
        const packed = woff.subarray(offset, offset + compressed);
        return { tag, checksum, data: compressed < length ? await inflateAsync(packed) : packed };
      }),
    )
  ).sort((a, b) => a.tag - b.tag);

  const power = 2 ** Math.floor(Math.log2(count));
  const header = Buffer.alloc(12 + count * SFNT_ENTRY);
  header.writeUInt32BE(flavor, 0);
  header.writeUInt16BE(count, 4);
  header.writeUInt16BE(power * 16, 6);
  header.writeUInt16BE(Math.log2(power), 8);
  header.writeUInt16BE(count * 16 - power * 16, 10);
  const chunks: Buffer[] = [header];
  let offset = header.length;
  tables.forEach((table, i) => {
    const at = 12 + i * SFNT_ENTRY;
    header.writeUInt32BE(table.tag, at);
    header.writeUInt32BE(table.checksum, at + 4);
    header.writeUInt32BE(offset, at + 8);
    header.writeUInt32BE(table.data.length, at + 12);
    const padding = (4 - (table.data.length % 4)) % 4;
    chunks.push(table.data, Buffer.alloc(padding));
    offset += table.data.length + padding;
  });
  return Buffer.concat(chunks);
}
