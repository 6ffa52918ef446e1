/**
 * The codes of the language catalog (D6), in BCP 47. Only codes live here: every display name comes
 * from CLDR through Intl.DisplayNames, and a test checks that each code has one.
 */

/** ISO 639-1, all of it but `tw`, which CLDR names Akan like `ak`: one name must mean one code. */
const ISO_639_1 = `aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv
  dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it
  iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb
  nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss
  st su sv sw ta te tg th ti tk tl tn to tr ts tt ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu`;

/** Languages without a two-letter code that legal and immigration work asks for. */
const OTHER_LANGUAGES = `ceb haw hmn yue hak nan wuu prs ckb tpi mni sat chr mfe pap nso kri mai bho doi
  kok syr`;

/** Regional and script variants clients order by name. */
const VARIANTS = `ar-EG ar-SA ar-MA ar-LB de-AT de-CH en-US en-GB en-AU en-CA es-ES es-MX es-419 es-US fr-FR fr-CA
  fr-CH fr-BE it-CH nl-BE pt-BR pt-PT ro-MD sr-Cyrl sr-Latn sw-KE uz-Cyrl uz-Latn zh-Hans zh-Hant zh-HK zh-TW
  pa-Arab ms-Arab az-Cyrl bs-Cyrl`;

/** Sign languages (ISO 639-3). */
const SIGN_LANGUAGES = 'ase';

export const LANGUAGE_CODES: readonly string[] = [ISO_639_1, OTHER_LANGUAGES, VARIANTS, SIGN_LANGUAGES]
  .join(' ')
  .split(/\s+/)
  .filter(Boolean);
