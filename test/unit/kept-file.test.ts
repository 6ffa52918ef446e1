import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keptFile } from '../../src/shared/kept-file';

describe('keptFile: a secret made once and shared by every process on one data directory', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'ltk-kept-'));

  it('makes the file on first use, then reads it without making another', () => {
    const path = join(dir(), 'nested', 'app-key');
    expect(keptFile(path, () => Buffer.from('first')).toString()).toBe('first');
    expect(keptFile(path, () => Buffer.from('second')).toString()).toBe('first');
    expect(readFileSync(path, 'utf8')).toBe('first');
  });

  it('uses the file another process put in place while it was making its own, and leaves no temporary file', () => {
    const folder = dir();
    const path = join(folder, 'signing.p12');
    const kept = keptFile(path, () => {
      writeFileSync(path, 'the other process');
      return Buffer.from('this process');
    });
    expect(kept.toString()).toBe('the other process');
    expect(readFileSync(path, 'utf8')).toBe('the other process');
    expect(readdirSync(folder)).toEqual(['signing.p12']);
  });

  it('keeps the file private to its owner', () => {
    const path = join(dir(), 'key');
    keptFile(path, () => Buffer.from('secret'));
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});
