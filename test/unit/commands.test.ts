import { graphqlCommand, restCommand } from '../../src/api/commands';
import { createInterpreterCommand, updateInterpreterCommand } from '../../src/domain/bookings/interpreter.commands';
import { createQuoteCommand } from '../../src/domain/quotes/quote.commands';
import { errorsOf } from '../helpers/commands';

const FILE = '0b6f7a4e-2c1d-4f8a-9e3b-5d7c1a2b3c4d';

describe('typed commands at the doors (D2, D14)', () => {
  it('reads a REST body into a camelCase command, canonical values and defaults filled in', () => {
    const command = restCommand(createQuoteCommand, {
      source_language: ' EN ',
      target_language: 'es',
      service_type: 'certified',
      file_ids: [FILE.toUpperCase()],
      addons: [{ code: 'hard_copy', quantity: 2 }],
      shipping_address: { name: 'A', line1: '1 Main St', city: 'Austin', postal_code: '78701', country: 'us' },
    });
    expect(command).toEqual({
      sourceLanguage: 'en',
      targetLanguage: 'es',
      serviceType: 'certified',
      fileIds: [FILE],
      addons: [{ code: 'hard_copy', quantity: 2 }],
      shippingAddress: { name: 'A', line1: '1 Main St', city: 'Austin', postalCode: '78701', country: 'US' },
    });
  });

  it('reports every error at once, keyed by the snake_case names on both doors', () => {
    const rest = errorsOf(() =>
      restCommand(createQuoteCommand, {
        source_language: 'en',
        target_language: 'EN',
        file_ids: ['nope', FILE, FILE],
        addons: [{ code: 'rush_2h', quantity: 0 }, { code: 'rush_2h' }],
        shipping_address: { country: 'Narnia' },
      }),
    );
    expect(rest).toEqual({
      target_language: ['The target language must be different from the source language.'],
      service_type: ['The service type field is required.'],
      file_ids: [
        'The file_ids.0 field must be one of your uploaded source files.',
        'The file ids field has a duplicate value.',
      ],
      'addons.0.quantity': ['The addons.0.quantity field must be at least 1.'],
      'shipping_address.name': ['The shipping address.name field is required.'],
      'shipping_address.line1': ['The shipping address.line1 field is required.'],
      'shipping_address.city': ['The shipping address.city field is required.'],
      'shipping_address.postal_code': ['The shipping address.postal code field is required.'],
      'shipping_address.country': ['The shipping address.country field must not be greater than 2 characters.'],
    });
    const graphql = errorsOf(() =>
      graphqlCommand(createQuoteCommand, {
        sourceLanguage: 'en',
        targetLanguage: 'EN',
        fileIds: ['nope', FILE, FILE],
        addons: [{ code: 'rush_2h', quantity: 0 }, { code: 'rush_2h' }],
        shippingAddress: { country: 'Narnia' },
      }),
    );
    expect(graphql).toEqual(rest);
  });

  it('reads only the contract names on REST: a camelCase key is an unknown field', () => {
    expect(
      errorsOf(() => restCommand(createQuoteCommand, { sourceLanguage: 'en', source_language: 'de' })),
    ).toMatchObject({ target_language: ['The target language field is required.'] });
    expect(errorsOf(() => restCommand(createQuoteCommand, { sourceLanguage: 'en' }))).toMatchObject({
      source_language: ['The source language field is required.'],
    });
    // Nor is another spelling that would read as the same name.
    expect(
      errorsOf(() =>
        restCommand(createQuoteCommand, { shipping_address: { line_1: '1 Main St' }, addons: [{ code: 'hard_copy' }] }),
      ),
    ).toMatchObject({ 'shipping_address.line1': ['The shipping address.line1 field is required.'] });
  });

  it('names every required field when the body is not an object', () => {
    for (const body of [[], 'text', 7, null, undefined])
      expect(Object.keys(errorsOf(() => restCommand(createQuoteCommand, body)))).toEqual([
        'source_language',
        'target_language',
        'service_type',
        'file_ids',
      ]);
  });

  it('refuses input nested past any command, without walking it', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(errorsOf(() => restCommand(createQuoteCommand, { addons: deep }))).toMatchObject({
      'addons.0': ['The addons.0 field must be an object.'],
    });
  });
});

describe('an interpreter’s lists (D32)', () => {
  it('keeps each language, mode and qualification once, in the order first given', () => {
    const command = graphqlCommand(createInterpreterCommand, {
      name: 'Ana Court',
      email: 'ana@interpreters.test',
      languages: ['es', 'FR', 'es', 'fr'],
      modes: ['on_site', 'video_remote', 'on_site'],
      qualifications: ['COURT_CERTIFIED', 'COURT_CERTIFIED'],
    });
    expect(command).toMatchObject({
      languages: ['es', 'fr'],
      modes: ['on_site', 'video_remote'],
      qualifications: ['COURT_CERTIFIED'],
    });
  });

  it('leaves a list out of a change when it is left out, and refuses a required one left out', () => {
    expect(graphqlCommand(updateInterpreterCommand, { name: 'Ana' })).toEqual({ name: 'Ana' });
    expect(errorsOf(() => graphqlCommand(createInterpreterCommand, { name: 'Ana', email: 'ana@x.test' }))).toEqual({
      languages: [expect.any(String)],
      modes: [expect.any(String)],
    });
  });
});
