/**
 * Analysis benchmark (a script that measures and prints; not a test).
 *
 *   npm run bench:analysis
 *
 * 1. Throughput: a 100-page text PDF and a 20 MB DOCX through the service's analysis sandbox (the warm child
 *    process, parsing included), against poppler's `pdftotext` on the same PDF when it is installed. Each
 *    timing is the best of several runs so that start-up noise does not decide the result.
 * 2. Through a real service process (`npm start`'s, embedded PostgreSQL in a temporary DATA_DIR): the time from
 *    the start of an upload to `counted` for a 36-page text PDF, the first after start and the median of the
 *    next ones, as a client polling GET /files/{id} sees it; then the peak memory of the service (and its
 *    analysis child) while it analyses compression bombs, against ANALYSIS_MAX_MEMORY_MB (D25).
 */
import 'reflect-metadata';
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { ZipFile } from 'yazl';
import { deeplyNestedPdf, encryptedPdf, pdfBomb, zipBombDocx } from '../test/helpers/documents';
import { ANALYSIS_WORKER_SCRIPT } from '../src/db/paths';
import { AnalysisSandbox, DEFAULT_LIMITS } from '../src/domain/files/analysis/analysis-sandbox';
import { DOCX, PDF } from '../src/documents/formats';
import { REPO_ROOT } from '../src/db/paths';
import { mib, samplePeakMemory, serviceMemoryBytes } from './process-memory';

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

async function makePdf(pages: number): Promise<Uint8Array> {
  const word = wordSource();
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage([612, 792]);
    for (let line = 0; line < 50; line++) {
      page.drawText(Array.from({ length: 12 }, word).join(' '), { x: 40, y: 750 - line * 14, size: 10, font });
    }
  }
  return doc.save();
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

async function throughput(dir: string): Promise<void> {
  const pdfPath = join(dir, 'bench.pdf');
  const docxPath = join(dir, 'bench.docx');
  writeFileSync(pdfPath, await makePdf(PDF_PAGES));
  await makeDocx(docxPath);
  console.log(`documents: ${PDF_PAGES}-page PDF (${(statSync(pdfPath).size / 1024).toFixed(0)} KiB), DOCX ${(statSync(docxPath).size / 1024 / 1024).toFixed(1)} MiB`);
  const sandbox = new AnalysisSandbox({ ...DEFAULT_LIMITS, workerScript: ANALYSIS_WORKER_SCRIPT });
  try {
    const ours = await best(() => sandbox.analyse(pdfPath, PDF));
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

    const docxRun = await best(() => sandbox.analyse(docxPath, DOCX));
    const mb = statSync(docxPath).size / 1024 / 1024;
    const words = docxRun.result.kind === 'counted' ? docxRun.result.words : 0;
    console.log(`service analysis, DOCX: ${docxRun.ms.toFixed(0)} ms, ${rate(mb, docxRun.ms)} MiB/s, ${rate(words / 1000, docxRun.ms)}k words/s (${JSON.stringify(docxRun.result)})`);
  } finally {
    sandbox.close();
  }
}

/** A real service process on an embedded PostgreSQL, and an API key made the README's way (CLI, then staff GraphQL). */
async function startService(dataDir: string) {
  const env = { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: '1000000', ANALYSIS_MAX_MEMORY_MB: String(DEFAULT_LIMITS.maxMemoryMb) };
  const main = join(REPO_ROOT, 'dist', 'src', 'main.js');
  const service = spawn(process.execPath, [main], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let seen = '';
    service.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const listening = /"port":(\d+)[^\n]*listening on port/.exec(seen);
      if (listening) resolve(Number(listening[1]));
    });
    service.once('exit', (code) => reject(new Error(`the service exited (${code}) before listening: ${seen}`)));
  });
  service.stdout.resume();
  const base = `http://127.0.0.1:${port}`;
  const cli = spawnSync(process.execPath, [join(REPO_ROOT, 'dist', 'src', 'cli', 'main.js'), 'staff:create', '--email', 'bench@example.test', '--name', 'Bench', '--role', 'admin'], { env, encoding: 'utf8' });
  const staff = cli.stdout.trim();
  const gql = async (query: string) => {
    const res = await fetch(`${base}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${staff}`, 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    const body = (await res.json()) as { data: Record<string, { id: string; items: { text: string }[] }>; errors?: unknown };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data;
  };
  const { createAccount } = await gql('mutation { createAccount(name: "Bench LLP", email: "firm@example.test") { id } }');
  await gql(`mutation { approveAccount(id: "${createAccount.id}") { id } }`);
  const { sentEmails } = await gql('{ sentEmails(to: "firm@example.test") { items { text } } }');
  const key = /ltk_test_[A-Za-z0-9]{40}/.exec(sentEmails.items[0].text)![0];
  return { service, base, key };
}

type Service = Awaited<ReturnType<typeof startService>>;

/** Uploads, then polls GET /files/{id} every 10 ms as an eager client would: the milliseconds to a final status. */
async function uploadToFinal({ base, key }: Service, content: Uint8Array, name: string): Promise<{ ms: number; status: string }> {
  const started = process.hrtime.bigint();
  const form = new FormData();
  form.append('file', new Blob([content]), name);
  const created = await fetch(`${base}/api/v1/files`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  if (created.status !== 201) throw new Error(`upload ${name}: ${created.status} ${await created.text()}`);
  const { id } = ((await created.json()) as { data: { id: string } }).data;
  for (;;) {
    const res = await fetch(`${base}/api/v1/files/${id}`, { headers: { authorization: `Bearer ${key}` } });
    if (res.status !== 200) throw new Error(`GET /files/${id}: ${res.status} ${await res.text()}`);
    const status = ((await res.json()) as { data: { analysis_status: string } }).data.analysis_status;
    if (status !== 'pending') return { ms: Number(process.hrtime.bigint() - started) / 1e6, status };
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function throughService(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ltk-bench-data-'));
  const service = await startService(dataDir);
  try {
    const pdf36 = await makePdf(36);
    const first = await uploadToFinal(service, pdf36, 'first.pdf');
    const next: number[] = [];
    for (let i = 0; i < 5; i++) next.push((await uploadToFinal(service, pdf36, `next-${i}.pdf`)).ms);
    next.sort((a, b) => a - b);
    console.log(`upload to ${first.status}, 36-page PDF: first after start ${first.ms.toFixed(0)} ms, then median ${next[2].toFixed(0)} ms (of 5; ${next.map((ms) => ms.toFixed(0)).join(', ')})`);

    const pid = service.service.pid!;
    const baseline = serviceMemoryBytes(pid);
    const bombs: [string, Uint8Array][] = [
      ['PDF bomb, 1 MB (1 GiB inflated)', pdfBomb(1)],
      ['PDF bomb, 20 MB (20 pages of 1 GiB)', pdfBomb(20)],
      ['PDF nested 100,000 deep', deeplyNestedPdf(100_000)],
      ['encrypted PDF', encryptedPdf()],
      ['DOCX zip bomb (1 GiB inflated)', await zipBombDocx(1024)],
    ];
    const peak = samplePeakMemory(pid);
    for (const [label, content] of bombs) {
      const one = samplePeakMemory(pid);
      const { ms, status } = await uploadToFinal(service, content, 'hostile.bin');
      console.log(`  ${label}: ${status} in ${ms.toFixed(0)} ms, peak ${mib(one.stop())}`);
    }
    const ceiling = DEFAULT_LIMITS.maxMemoryMb * 1024 * 1024;
    console.log(`service memory while analysing bombs: baseline ${mib(baseline)}, peak ${mib(peak.stop())}; ceiling ${mib(ceiling)} above the baseline (ANALYSIS_MAX_MEMORY_MB)`);
  } finally {
    service.service.kill('SIGTERM');
    await new Promise((resolve) => service.service.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ltk-bench-'));
  try {
    await throughput(dir);
    await throughService();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
