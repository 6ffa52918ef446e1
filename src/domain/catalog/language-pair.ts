import type { Validator } from '../shared/validation';
import type { CatalogService } from './catalog.service';

/**
 * `source_language` and `target_language` from the catalog, matched case-insensitively, kept in canonical form,
 * and different from each other (D6). Shared by quotes and bookings.
 */
export function readLanguagePair(v: Validator, catalog: CatalogService): { source?: string; target?: string } {
  const read = (field: string) => {
    const code = v.string(field, { required: true, max: 20 });
    if (code === undefined) return undefined;
    const language = catalog.findLanguage(code);
    if (!language) v.fail(field, `The selected ${field.replace(/_/g, ' ')} is invalid.`);
    return language?.code;
  };
  const source = read('source_language');
  const target = read('target_language');
  if (source && source === target)
    v.fail('target_language', 'The target language must be different from the source language.');
  return { source, target };
}
