import type { Action } from '../../shared/action';
import { FieldErrors, Form, formText, TextArea, TextField } from '../../shared/form';
import { formatEnum } from '../../shared/format';
import type { InterpretationMode, InterpreterInput, InterpreterQualification } from '../../shared/gql/graphql';

export const MODES: InterpretationMode[] = ['ON_SITE', 'VIDEO_REMOTE', 'SIGHT_TRANSLATION', 'ASL', 'AI_CONFERENCE'];
export const QUALIFICATIONS: InterpreterQualification[] = ['COURT_CERTIFIED', 'MEDICAL_CERTIFIED', 'ASL_CERTIFIED'];

export interface InterpreterRecord {
  name: string;
  email: string;
  languages: string[];
  modes: InterpretationMode[];
  qualifications: InterpreterQualification[];
  credentials?: string | null;
}

/** The record as the form holds it: the languages typed as codes separated by commas or spaces ("es, pt-BR"). */
function inputOf(form: FormData): InterpreterInput {
  return {
    name: formText(form, 'name'),
    email: formText(form, 'email'),
    languages: formText(form, 'languages')
      .split(/[\s,]+/)
      .filter(Boolean),
    modes: form.getAll('modes') as InterpretationMode[],
    qualifications: form.getAll('qualifications') as InterpreterQualification[],
    credentials: formText(form, 'credentials') || null,
  };
}

/** A record's fields (D32), for a new interpreter or a change to one: what the form shows is what is saved. */
export function InterpreterForm<V>({
  action,
  variables,
  submitLabel,
  label,
  record,
}: {
  action: Action<V>;
  variables: (input: InterpreterInput) => V;
  submitLabel: string;
  label: string;
  record?: InterpreterRecord;
}) {
  return (
    <Form
      submitLabel={submitLabel}
      label={label}
      onSubmit={(form) => action.run(variables(inputOf(form)))}
      {...action.form}
    >
      <TextField name="name" label="Name" defaultValue={record?.name} autoComplete="off" />
      <TextField name="email" label="E-mail" type="email" defaultValue={record?.email} autoComplete="off" />
      <TextField
        name="languages"
        label="Languages"
        hint="Catalog codes, separated by commas: es, pt-BR"
        defaultValue={record?.languages.join(', ')}
      />
      <Boxes name="modes" legend="Modes" values={MODES} checked={record?.modes} />
      <Boxes name="qualifications" legend="Qualifications" values={QUALIFICATIONS} checked={record?.qualifications} />
      <TextArea name="credentials" label="Credentials (optional)" defaultValue={record?.credentials ?? ''} />
    </Form>
  );
}

function Boxes({
  name,
  legend,
  values,
  checked = [],
}: {
  name: string;
  legend: string;
  values: readonly string[];
  checked?: readonly string[];
}) {
  return (
    <fieldset className="boxes">
      <legend>{legend}</legend>
      {values.map((value) => (
        <label className="check" key={value}>
          <input type="checkbox" name={name} value={value} defaultChecked={checked.includes(value)} />{' '}
          {formatEnum(value)}
        </label>
      ))}
      <FieldErrors name={name} />
    </fieldset>
  );
}
