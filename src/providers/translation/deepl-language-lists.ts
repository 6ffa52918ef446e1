/**
 * A fixed copy of DeepL's language lists as `GET /v2/languages` answers them (source, then `type=target`), for the
 * sandbox engine, which offers exactly what DeepL would (D29), and for the tests' DeepL stand-in. The DeepL engine
 * reads the live lists at start instead.
 */
import { LanguageSupport } from './language-support';

export interface DeepLLanguage {
  language: string;
  name: string;
  /** Only on target languages. */
  supports_formality?: boolean;
}

const both: [code: string, name: string, formality: boolean][] = [
  ['AR', 'Arabic', false],
  ['BG', 'Bulgarian', false],
  ['CS', 'Czech', false],
  ['DA', 'Danish', false],
  ['DE', 'German', true],
  ['EL', 'Greek', false],
  ['ES', 'Spanish', true],
  ['ET', 'Estonian', false],
  ['FI', 'Finnish', false],
  ['FR', 'French', true],
  ['HU', 'Hungarian', false],
  ['ID', 'Indonesian', false],
  ['IT', 'Italian', true],
  ['JA', 'Japanese', true],
  ['KO', 'Korean', false],
  ['LT', 'Lithuanian', false],
  ['LV', 'Latvian', false],
  ['NB', 'Norwegian Bokmål', false],
  ['NL', 'Dutch', true],
  ['PL', 'Polish', true],
  ['RO', 'Romanian', false],
  ['RU', 'Russian', true],
  ['SK', 'Slovak', false],
  ['SL', 'Slovenian', false],
  ['SV', 'Swedish', false],
  ['TR', 'Turkish', false],
  ['UK', 'Ukrainian', false],
];

/** Languages DeepL names only as sources: their targets are the regional or script variants below. */
const sourceOnly: [code: string, name: string][] = [
  ['EN', 'English'],
  ['PT', 'Portuguese'],
  ['ZH', 'Chinese'],
];

const targetOnly: [code: string, name: string, formality: boolean][] = [
  ['EN-GB', 'English (British)', false],
  ['EN-US', 'English (American)', false],
  ['ES-419', 'Spanish (Latin American)', true],
  ['PT-BR', 'Portuguese (Brazilian)', true],
  ['PT-PT', 'Portuguese (European)', true],
  ['ZH', 'Chinese (simplified)', false],
  ['ZH-HANS', 'Chinese (simplified)', false],
  ['ZH-HANT', 'Chinese (traditional)', false],
];

const byCode = (a: DeepLLanguage, b: DeepLLanguage) => a.language.localeCompare(b.language);

export const DEEPL_SOURCE_LANGUAGES: readonly DeepLLanguage[] = [...both, ...sourceOnly]
  .map(([language, name]) => ({ language, name }))
  .sort(byCode);

export const DEEPL_TARGET_LANGUAGES: readonly DeepLLanguage[] = [...both, ...targetOnly]
  .map(([language, name, formality]) => ({ language, name, supports_formality: formality }))
  .sort(byCode);

/** The copy as the engines use it. */
export const DEEPL_LANGUAGES = new LanguageSupport({
  sources: DEEPL_SOURCE_LANGUAGES.map((entry) => entry.language),
  targets: DEEPL_TARGET_LANGUAGES.map((entry) => entry.language),
});
