import { TextSeal } from '../../src/domain/shared/text-seal';

const KEY = 'a'.repeat(64);
const OLD_KEY = 'b'.repeat(64);

describe('TextSeal', () => {
  it('opens what it sealed, and the sealed form shows nothing of the text', () => {
    const seal = new TextSeal('sent-email-text', KEY, []);
    const sealed = seal.seal('Your key: ltk_live_secret');
    expect(sealed).toMatch(/^sealed:v1:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('ltk_live');
    expect(seal.open(sealed)).toBe('Your key: ltk_live_secret');
    expect(seal.seal('same')).not.toBe(seal.seal('same'));
  });

  it('opens text sealed under a previous APP_KEY while the rotation completes, and not once it is dropped', () => {
    const sealed = new TextSeal('sent-email-text', OLD_KEY, []).seal('before the rotation');
    expect(new TextSeal('sent-email-text', KEY, [OLD_KEY]).open(sealed)).toBe('before the rotation');
    expect(new TextSeal('sent-email-text', KEY, []).open(sealed)).toBeNull();
  });

  it('keeps purposes apart, and refuses altered or unsealed text', () => {
    const seal = new TextSeal('sent-email-text', KEY, []);
    const sealed = seal.seal('text');
    expect(new TextSeal('another-purpose', KEY, []).open(sealed)).toBeNull();
    const altered = sealed.slice(0, -2) + (sealed.endsWith('AA') ? 'BB' : 'AA');
    expect(seal.open(altered)).toBeNull();
    expect(seal.open('plain text')).toBeNull();
    expect(seal.open('sealed:v1:')).toBeNull();
  });
});
