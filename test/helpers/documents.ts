import { constants, crc32, deflateRawSync, deflateSync } from 'node:zlib';
import type { Paragraph, Table } from 'docx';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pdfLib } from '../../src/documents/pdf-lib';
import { entries, openZip, readEntry } from '../../src/documents/zip-reader';
import { UnicodeFonts } from '../../src/documents/unicode-fonts';
import { wrapText } from '../../src/documents/wrap-text';
import { ZipFile } from 'yazl';

/** Test documents, generated here so every count the tests expect is known by construction. */

/** docx, like pdf-lib, loads with the first document that needs it: many test files never make one. */
const docxLib = () => require('docx') as typeof import('docx');

export const words = (count: number, word = 'word') => Array.from({ length: count }, () => word).join(' ');

/** A page of `pdf()` that holds only an image, like a scanned sheet: no text layer. */
export const SCANNED = null;

/**
 * One page per string, wrapped to the page's width (CJK between characters), in Helvetica where WinAnsi has the
 * character (Spanish accents) and the service's Unicode fallback for the rest (CJK, Cyrillic). Text that runs
 * off the bottom of the page is drawn there, where readers do not see it. A `SCANNED` entry is a page covered
 * by an image and nothing else.
 */
export async function pdf(
  pages: (string | typeof SCANNED)[],
  { pageSize = [612, 792], fontSize = 10 }: { pageSize?: [number, number]; fontSize?: number } = {},
): Promise<Buffer> {
  const { PDFDocument, StandardFonts } = pdfLib();
  const doc = await PDFDocument.create();
  const fonts = await UnicodeFonts.forText(doc, [StandardFonts.Helvetica], pages.join('\n'));
  const font = fonts.font(StandardFonts.Helvetica);
  const scan = pages.includes(SCANNED) ? await doc.embedPng(png()) : undefined;
  for (const text of pages) {
    const page = doc.addPage(pageSize);
    if (text === SCANNED) {
      page.drawImage(scan!, { x: 0, y: 0, width: pageSize[0], height: pageSize[1] });
      continue;
    }
    let y = pageSize[1] - 42;
    for (const line of wrapText(text, pageSize[0] - 80, (candidate) => fonts.width(candidate, font, fontSize))) {
      fonts.draw(page, line, { x: 40, y, size: fontSize, font });
      y -= fontSize * 1.4;
    }
  }
  return Buffer.from(await doc.save());
}

/** Pages with drawings and no text layer, like a scan. */
export async function textlessPdf(pageCount = 2): Promise<Buffer> {
  const { PDFDocument, rgb } = pdfLib();
  const doc = await PDFDocument.create();
  for (let i = 0; i < pageCount; i++) {
    doc.addPage([612, 792]).drawRectangle({ x: 50, y: 50, width: 300, height: 200, color: rgb(0.2, 0.3, 0.8) });
  }
  return Buffer.from(await doc.save());
}

export async function blankPagesPdf(pageCount: number): Promise<Buffer> {
  const doc = await pdfLib().PDFDocument.create();
  for (let i = 0; i < pageCount; i++) doc.addPage([100, 100]);
  return Buffer.from(await doc.save());
}

/** A PDF written object by object (numbered from 1; the first is the catalog), for structures pdf-lib will not make. */
function rawPdf(objects: (string | Buffer)[], trailer = ''): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  let length = parts[0].length;
  const offsets: number[] = [];
  const add = (part: string | Buffer) => {
    const bytes = Buffer.isBuffer(part) ? part : Buffer.from(part, 'latin1');
    parts.push(bytes);
    length += bytes.length;
  };
  objects.forEach((object, i) => {
    offsets.push(length);
    add(`${i + 1} 0 obj\n`);
    add(object);
    add('\nendobj\n');
  });
  const xref = length;
  add(
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`,
  );
  add(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailer}>>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}

/**
 * A PDF encrypted with an unknown user password (Standard security handler, revision 2): the owner and user
 * hashes are random, so no empty password opens it.
 */
export function encryptedPdf(): Buffer {
  const hex = (n: number) =>
    Array.from({ length: n }, (_, i) => ((i * 37 + 11) % 256).toString(16).padStart(2, '0')).join('');
  return rawPdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
      `<< /Filter /Standard /V 1 /R 2 /O <${hex(32)}> /U <${hex(32).split('').reverse().join('')}> /P -44 >>`,
    ],
    `/Encrypt 4 0 R /ID [<${hex(16)}> <${hex(16)}>] `,
  );
}

const BOMB_BLOCK_BYTES = 64 * 1024 * 1024;
let bombBlock: Buffer | undefined;

/**
 * zlib data inflating to `bytes` zero bytes (rounded up to 64 MiB), about 1/1000 of that in size, made in
 * milliseconds: 64 MiB of zeros deflated once into non-final blocks, repeated, then an empty final block.
 */
export function deflatedZeros(bytes: number): Buffer {
  bombBlock ??= deflateRawSync(Buffer.alloc(BOMB_BLOCK_BYTES), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const blocks = Math.ceil(bytes / BOMB_BLOCK_BYTES);
  const adler = Buffer.alloc(4); // Adler-32 of n zero bytes: a = 1, b = n mod 65521
  adler.writeUInt32BE(((((blocks * BOMB_BLOCK_BYTES) % 65521) << 16) >>> 0) + 1);
  return Buffer.concat([
    Buffer.from([0x78, 0xda]),
    ...Array<Buffer>(blocks).fill(bombBlock),
    Buffer.from([0x03, 0x00]),
    adler,
  ]);
}

/** A compression bomb: `pages` pages, each drawn by a content stream inflating to `inflatedBytes` (~1 MB of file per GiB). */
export function pdfBomb(pages: number, inflatedBytes = 1024 * 1024 * 1024): Buffer {
  const content = deflatedZeros(inflatedBytes);
  const kids = Array.from({ length: pages }, (_, i) => `${3 + 2 * i} 0 R`).join(' ');
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
    ...Array.from({ length: pages }, (_, i) => [
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${4 + 2 * i} 0 R >>`,
      Buffer.concat([
        Buffer.from(`<< /Length ${content.length} /Filter /FlateDecode >>\nstream\n`),
        content,
        Buffer.from('\nendstream'),
      ]),
    ]).flat(),
  ]);
}

/** A PDF whose catalog holds arrays nested `depth` deep: parsers that recurse run out of stack. */
export const deeplyNestedPdf = (depth: number): Buffer =>
  rawPdf([
    `<< /Type /Catalog /Pages 2 0 R /Deep ${'['.repeat(depth)}${']'.repeat(depth)} >>`,
    '<< /Type /Pages /Kids [] /Count 0 >>',
  ]);

export interface DocxContent {
  paragraphs?: string[];
  /** Paragraphs whose text is split across several runs, as Word does for formatting changes. */
  splitRuns?: string[][];
  table?: string[][];
  header?: string;
  footer?: string;
  footnote?: string;
}

export async function docx(content: DocxContent): Promise<Buffer> {
  const { Document, Footer, FootnoteReferenceRun, Header, Packer, Paragraph, Table, TableCell, TableRow, TextRun } =
    docxLib();
  const children: (Paragraph | Table)[] = [
    ...(content.paragraphs ?? []).map((text) => new Paragraph({ children: [new TextRun(text)] })),
    ...(content.splitRuns ?? []).map((runs) => new Paragraph({ children: runs.map((run) => new TextRun(run)) })),
  ];
  if (content.table) {
    children.push(
      new Table({
        rows: content.table.map(
          (row) => new TableRow({ children: row.map((cell) => new TableCell({ children: [new Paragraph(cell)] })) }),
        ),
      }),
    );
  }
  if (content.footnote) children.push(new Paragraph({ children: [new TextRun('See'), new FootnoteReferenceRun(1)] }));
  const doc = new Document({
    footnotes: content.footnote ? { 1: { children: [new Paragraph(content.footnote)] } } : undefined,
    sections: [
      {
        headers: content.header ? { default: new Header({ children: [new Paragraph(content.header)] }) } : undefined,
        footers: content.footer ? { default: new Footer({ children: [new Paragraph(content.footer)] }) } : undefined,
        children,
      },
    ],
  });
  return Packer.toBuffer(doc);
}

/** WordprocessingML's namespace. */
const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/** A zip of the given entries (deflated, or stored as they are), for DOCX look-alikes. */
export function zip(entries: Record<string, Buffer | string>, { compress = true } = {}): Promise<Buffer> {
  const file = new ZipFile();
  for (const [name, data] of Object.entries(entries))
    file.addBuffer(Buffer.isBuffer(data) ? data : Buffer.from(data), name, { compress });
  file.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    file.outputStream
      .on('data', (chunk: Buffer) => chunks.push(chunk))
      .on('end', () => resolve(Buffer.concat(chunks)))
      .on('error', reject);
  });
}

/** A DOCX with one paragraph and the page count Word saves in its properties (`docProps/app.xml`). */
export const docxWithSavedPages = (text: string, pages: number) =>
  zip({
    'word/document.xml': `<w:document xmlns:w="${W}"><w:body><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:body></w:document>`,
    'docProps/app.xml': `<?xml version="1.0"?><Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Template>Normal.dotm</Template><Pages>${pages}</Pages><Words>${text.split(' ').length}</Words></Properties>`,
  });

/**
 * A DOCX-shaped zip whose document.xml inflates to `megabytes` MiB of zero bytes (rounded up to 64 MiB): a
 * compression bomb, made in well under a second as an attacker's would be (deflating a gigabyte took 9 s).
 */
export function zipBombDocx(megabytes: number): Buffer {
  return bombDocx([{ name: 'word/document.xml', megabytes }]);
}

/**
 * A small DOCX with real text whose media parts each inflate to `megabytes` of zeros (three 1,000 MB parts in
 * about 3 MB): a document a translation or a footer would have to copy whole.
 */
export function mediaBombDocx(megabytes: number, count: number): Buffer {
  const body = Buffer.from(
    `<w:document xmlns:w="${W}"><w:body><w:p><w:r><w:t>Contrato de arrendamiento.</w:t></w:r></w:p></w:body></w:document>`,
  );
  const media = Array.from({ length: count }, (_, i) => ({ name: `word/media/image${i + 1}.bin`, megabytes }));
  return bombDocx(media, [{ name: 'word/document.xml', method: 0, data: body, crc: crc32(body), size: body.length }]);
}

/** A zip with [Content_Types].xml, the given stored entries and one bomb entry per `bombs` item. */
function bombDocx(bombs: { name: string; megabytes: number }[], stored: ZipEntry[] = []): Buffer {
  const types = Buffer.from('<Types/>');
  const parts = bombs.map(({ name, megabytes }) => {
    const deflated = deflatedZeros(megabytes * 1024 * 1024);
    const blocks = Math.ceil((megabytes * 1024 * 1024) / BOMB_BLOCK_BYTES);
    const zeros = Buffer.alloc(BOMB_BLOCK_BYTES);
    let crc = 0;
    for (let i = 0; i < blocks; i++) crc = crc32(zeros, crc);
    // The raw deflate data inside the zlib wrapping deflatedZeros gives: without its 2-byte header and Adler-32.
    return { name, method: 8 as const, data: deflated.subarray(2, -4), crc, size: blocks * BOMB_BLOCK_BYTES };
  });
  return zipOfEntries([
    { name: '[Content_Types].xml', method: 0, data: types, crc: crc32(types), size: types.length },
    ...stored,
    ...parts,
  ]);
}

/**
 * A DOCX whose body is `count` empty paragraphs (`<w:p/>`): what a quadratic pattern over paragraphs chokes on.
 * Deflated, 200,000 of them take 2 KB; stored, 1.2 MB (within any compression-ratio limit).
 */
export function emptyParagraphsDocx(count: number, { compress = true } = {}): Promise<Buffer> {
  return zip(
    {
      '[Content_Types].xml': '<Types/>',
      'word/document.xml': `<w:document xmlns:w="${W}"><w:body>${'<w:p/>'.repeat(count)}</w:body></w:document>`,
    },
    { compress },
  );
}

interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: 0 | 8;
  data: Buffer;
  crc: number;
  /** Inflated size. */
  size: number;
}

/** The fields a local and a central header share, from the compression method to the name's length (time and date left 0). */
function writeEntryFields(header: Buffer, at: number, entry: ZipEntry, nameLength: number): void {
  header.writeUInt16LE(entry.method, at);
  header.writeUInt32LE(entry.crc >>> 0, at + 6);
  header.writeUInt32LE(entry.data.length, at + 10);
  header.writeUInt32LE(entry.size, at + 14);
  header.writeUInt16LE(nameLength, at + 18);
}

/** A zip of entries whose data is already in its stored form (local headers, data, central directory, end record). */
function zipOfEntries(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    writeEntryFields(local, 8, entry, name.length);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4); // version made by
    header.writeUInt16LE(20, 6); // version needed
    writeEntryFields(header, 10, entry, name.length);
    header.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.data);
    central.push(header, name);
    offset += local.length + name.length + entry.data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A DOCX-shaped zip with thousands of entries (stored: deflating each one took seconds and changes nothing here). */
export const manyEntriesDocx = (count: number) =>
  zip(
    Object.fromEntries([
      ['word/document.xml', '<w:document/>'],
      ...Array.from({ length: count }, (_, i): [string, string] => [`word/media/${i}.bin`, 'x']),
    ]),
    { compress: false },
  );

/** A real 2x2 PNG, built chunk by chunk. */
export function png(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(2, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows = Buffer.from([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A minimal baseline JPEG (1x1, grey), as the bytes of one. */
export function jpeg(): Buffer {
  return Buffer.from(
    'ffd8ffe000104a46494600010100000100010000ffdb004300080606070605080707070909080a0c140d0c0b0b0c1912130f141d1a1f1e1d1a1c1c20242e2720222c231c1c2837292c30313434341f27393d38323c2e333432ffc0000b080001000101011100ffc4001f0000010501010101010100000000000000000102030405060708090a0bffc400b5100002010303020403050504040000017d01020300041105122131410613516107227114328191a1082342b1c11552d1f02433627282090a161718191a25262728292a3435363738393a434445464748494a535455565758595a636465666768696a737475767778797a838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9eaf1f2f3f4f5f6f7f8f9faffda0008010100003f00fbd3ffd9',
    'hex',
  );
}

/** The named parts of a DOCX, as text. */
export async function docxParts(bytes: Buffer, names: RegExp): Promise<Record<string, string>> {
  const path = join(mkdtempSync(join(tmpdir(), 'ltk-docx-')), 'delivered.docx');
  writeFileSync(path, bytes);
  const zip = await openZip(path);
  const parts: Record<string, string> = {};
  try {
    for await (const entry of entries(zip))
      if (names.test(entry.fileName)) parts[entry.fileName] = (await readEntry(zip, entry)).toString('utf8');
  } finally {
    zip.close();
  }
  return parts;
}
