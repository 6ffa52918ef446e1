import { useId, useState } from 'react';
import { SelectField } from '../../shared/form';

export interface LanguageOption {
  code: string;
  name: string;
}

/** A language select with a search box above it that narrows its options by name or code. */
export function LanguagePicker({
  name,
  label,
  languages,
}: {
  name: string;
  label: string;
  languages: LanguageOption[];
}) {
  const [search, setSearch] = useState('');
  const id = useId();
  const wanted = search.trim().toLowerCase();
  const shown = languages.filter(
    (language) => !wanted || language.name.toLowerCase().includes(wanted) || language.code.toLowerCase() === wanted,
  );
  return (
    <div className="language">
      <label htmlFor={id} className="search-label">
        Search {label.toLowerCase()}s
      </label>
      <input id={id} type="search" value={search} onChange={(event) => setSearch(event.currentTarget.value)} />
      <SelectField
        name={name}
        label={label}
        options={[
          { value: '', label: shown.length > 0 ? 'Choose…' : 'No language matches' },
          ...shown.map((language) => ({ value: language.code, label: `${language.name} (${language.code})` })),
        ]}
      />
    </div>
  );
}
