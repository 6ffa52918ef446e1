const displayNames = new Intl.DisplayNames('en', { type: 'language', fallback: 'none' });

/** A catalog code's English name (CLDR): as `GET /languages` lists it (D6) and as pages and e-mails name it (D29). */
export const languageName = (code: string): string => displayNames.of(code) ?? code;

/** `Spanish to English`. */
export const languagePairName = (source: string, target: string): string =>
  `${languageName(source)} to ${languageName(target)}`;
