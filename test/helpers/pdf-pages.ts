import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestApp } from './test-app';

/** The bytes a GET of `path` answers, whatever its type: a PDF, as its reader gets it. */
export const bytesOf = (t: TestApp, path: string) =>
  t.rest
    .raw()
    .get(path)
    .buffer(true)
    .parse((r, done) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c)).on('end', () => done(null, Buffer.concat(chunks)));
    });

/**
 * What a PDF shows, read with poppler's tools: its first page drawn as a PNG (checked to be one: the PDF renders),
 * and its text as laid out on the page (`pdftotext -layout`: a table's row on one line, its cells apart).
 */
export function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'pdf-'));
  try {
    writeFileSync(join(dir, 'document.pdf'), pdf);
    execFileSync('pdftoppm', ['-png', '-r', '40', '-f', '1', '-l', '1', join(dir, 'document.pdf'), join(dir, 'page')]);
    expect(readFileSync(join(dir, 'page-1.png')).subarray(1, 4).toString()).toBe('PNG');
    return execFileSync('pdftotext', ['-layout', join(dir, 'document.pdf'), '-']).toString();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
