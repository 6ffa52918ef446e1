/**
 * Analysis throughput benchmark (a script that measures and prints; not a test).
 *
 *   npm run bench:analysis
 *
 * Builds a 100-page text PDF and a 20 MB DOCX, then times the service's own analysis (the worker thread the
 * service runs, parsing included) against poppler's `pdftotext` on the same PDF, in the same run. Each timing
 * is the best of several runs so that start-up noise does not decide the result.
 */
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { ZipFile } from 'yazl';
import { DOCX, PDF } from '../src/domain/files/analysis/formats';
import { runAnalysis } from '../src/domain/files/analysis/run-analysis';

const RUNS = 3;
const PDF_PAGES = 100;
const DOCX_BYTES = 20 * 1024 * 1024;

/** Deterministic pseudo-random words, so every run measures the same documents. */
function wordSource(seed = 42) {
  // mulberry32: 32-bit integer arithmetic, so the sequence does not repeat early the way a float LCG does.
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let z = Math.imul(state ^ (state >>> 15), 1 | state);
    z = (z + Math.imul(z ^ (z >>> 7), 61 | z)) ^ z;
    return ((z ^ (z >>> 14)) >>> 0) / 2 ** 32;
  };
  const letters = 'abcdefghijklmnopqrstuvwxyzáéíóúñ';
  return () => Array.from({ length: 2 + Math.floor(next() * 9) }, () => letters[Math.floor(next() * letters.length)]).join('');
}

async function makePdf(path: string): Promise<void> {
  const word = wordSource();
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < PDF_PAGES; p++) {
    const page = doc.addPage([612, 792]);
    for (let line = 0; line < 50; line++) {
      page.drawText(Array.from({ length: 12 }, word).join(' '), { x: 40, y: 750 - line * 14, size: 10, font });
    }
  }
  writeFileSync(path, await doc.save());
}

/** A minimal valid DOCX whose document.xml is generated paragraph by paragraph until the zip reaches ~20 MB. */
async function makeDocx(path: string): Promise<void> {
  const word = wordSource(7);
  const paragraph = () => `<w:p><w:r><w:t xml:space="preserve">${Array.from({ length: 40 }, word).join(' ')}</w:t></w:r></w:p>`;
  // These random words in WordprocessingML deflate to about 55%: aim for the target compressed size.
  const paragraphs = Math.ceil((DOCX_BYTES / 0.55) / paragraph().length);
  const zip = new ZipFile();
  zip.addBuffer(
    Buffer.from(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    '[Content_Types].xml',
  );
  zip.addBuffer(
    Buffer.from(
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    '_rels/.rels',
  );
  const parts: Buffer[] = [Buffer.from('<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>')];
  for (let i = 0; i < paragraphs; i++) parts.push(Buffer.from(paragraph()));
  parts.push(Buffer.from('</w:body></w:document>'));
  zip.addBuffer(Buffer.concat(parts), 'word/document.xml');
  zip.end();
  await new Promise<void>((resolve, reject) => zip.outputStream.pipe(createWriteStream(path)).on('close', resolve).on('error', reject));
}

async function best<T>(work: () => Promise<T> | T): Promise<{ ms: number; result: T }> {
  let fastest = Infinity;
  let result!: T;
  for (let i = 0; i < RUNS; i++) {
    const started = process.hrtime.bigint();
    result = await work();
    fastest = Math.min(fastest, Number(process.hrtime.bigint() - started) / 1e6);
  }
  return { ms: fastest, result };
}

const rate = (count: number, ms: number) => (count / (ms / 1000)).toFixed(1);

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ltk-bench-'));
  const pdfPath = join(dir, 'bench.pdf');
  const docxPath = join(dir, 'bench.docx');
  await makePdf(pdfPath);
  await makeDocx(docxPath);
  console.log(`documents: ${PDF_PAGES}-page PDF (${(statSync(pdfPath).size / 1024).toFixed(0)} KiB), DOCX ${(statSync(docxPath).size / 1024 / 1024).toFixed(1)} MiB`);

  const ours = await best(() => runAnalysis(pdfPath, PDF));
  console.log(`service analysis, PDF : ${ours.ms.toFixed(0)} ms, ${rate(PDF_PAGES, ours.ms)} pages/s (${JSON.stringify(ours.result)})`);

  const probe = spawnSync('pdftotext', ['-v'], { encoding: 'utf8' });
  if (probe.error) {
    console.log('pdftotext: not installed (Debian: apt-get install poppler-utils); no comparison printed');
  } else {
    const poppler = await best(() => {
      const run = spawnSync('pdftotext', ['-enc', 'UTF-8', pdfPath, '-'], { maxBuffer: 64 * 1024 * 1024 });
      if (run.status !== 0) throw new Error(`pdftotext failed: ${run.stderr}`);
      return run.stdout.length;
    });
    console.log(`pdftotext, PDF        : ${poppler.ms.toFixed(0)} ms, ${rate(PDF_PAGES, poppler.ms)} pages/s`);
    console.log(`ratio (service / pdftotext time): ${(ours.ms / poppler.ms).toFixed(2)}x`);
  }

  const docxRun = await best(() => runAnalysis(docxPath, DOCX));
  const mb = statSync(docxPath).size / 1024 / 1024;
  const words = docxRun.result.kind === 'counted' ? docxRun.result.words : 0;
  console.log(`service analysis, DOCX: ${docxRun.ms.toFixed(0)} ms, ${rate(mb, docxRun.ms)} MiB/s, ${rate(words / 1000, docxRun.ms)}k words/s (${JSON.stringify(docxRun.result)})`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
