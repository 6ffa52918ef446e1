import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { TextSeal } from '../../src/domain/shared/text-seal';

const KEY = 'a'.repeat(64);
const OLD_KEY = 'b'.repeat(64);
const ROW = '6f1c1a52-7d0e-4f8e-9a41-3c2b1d0e9f11';

describe('TextSeal', () => {
  it('opens what it sealed, and the sealed form shows nothing of the text', () => {
    const seal = new TextSeal('sent-email-text', KEY, []);
    const sealed = seal.seal('Your key: ltk_live_secret', ROW);
    expect(sealed).toMatch(/^sealed:v1:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('ltk_live');
    expect(seal.open(sealed, ROW)).toBe('Your key: ltk_live_secret');
    expect(seal.seal('same', ROW)).not.toBe(seal.seal('same', ROW));
  });

  it('opens text sealed under a previous APP_KEY while the rotation completes, and not once it is dropped', () => {
    const sealed = new TextSeal('sent-email-text', OLD_KEY, []).seal('before the rotation', ROW);
    expect(new TextSeal('sent-email-text', KEY, [OLD_KEY]).open(sealed, ROW)).toBe('before the rotation');
    expect(new TextSeal('sent-email-text', KEY, []).open(sealed, ROW)).toBeNull();
  });

  it('opens only for the row it was sealed for, and for its purpose', () => {
    const seal = new TextSeal('sent-email-text', KEY, []);
    const sealed = seal.seal('text', ROW);
    expect(seal.open(sealed, 'another-row')).toBeNull();
    expect(new TextSeal('another-purpose', KEY, []).open(sealed, ROW)).toBeNull();
  });

  it('refuses altered, truncated or unsealed text', () => {
    const seal = new TextSeal('sent-email-text', KEY, []);
    const sealed = seal.seal('text', ROW);
    expect(seal.open(sealed.slice(0, -2) + (sealed.endsWith('AA') ? 'BB' : 'AA'), ROW)).toBeNull();
    expect(seal.open('plain text', ROW)).toBeNull();
    expect(seal.open('sealed:v1:', ROW)).toBeNull();
    expect(seal.open(`sealed:v1:${randomBytes(20).toString('base64url')}`, ROW)).toBeNull();
  });

  it('refuses a forgery with a shortened tag, which GCM would otherwise check on its first bytes only', () => {
    // An empty text under the right key with a 4-byte tag: what an attacker could try to guess 2^32 times.
    const key = Buffer.from(hkdfSync('sha256', KEY, '', 'sent-email-text', 32));
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: 4 }).setAAD(Buffer.from(ROW));
    cipher.final();
    const forged = `sealed:v1:${Buffer.concat([iv, cipher.getAuthTag()]).toString('base64url')}`;
    expect(new TextSeal('sent-email-text', KEY, []).open(forged, ROW)).toBeNull();
  });
});
