import {
  createContext,
  useContext,
  useId,
  useRef,
  type FormEvent,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { useDrawnForm } from './action';
import { unplacedMessages, type Refusal } from './refusal';

/** What a form hands its fields: the refusal to read their messages from, and where each field says it is shown. */
interface FormState {
  refusal?: Refusal;
  shown: Set<string>;
}
const FormContext = createContext<FormState>({ shown: new Set() });

export interface FormProps {
  /** The submit button's text, which is its accessible name ("Hold", "Approve translation"). */
  submitLabel: string;
  /** Runs the action; what it resolves to is its answer, undefined when refused. */
  onSubmit: (data: FormData) => unknown;
  /**
   * Empties the fields once the action answered: for what is done again with new text (a note, a message, a refund),
   * so a second press does not send the same one twice.
   */
  clearOnDone?: boolean;
  refusal?: Refusal;
  busy?: boolean;
  /** What the last submit achieved, announced politely ("Order held."). */
  done?: string;
  /** The action the form runs (`useAction`'s `form`): while the form is drawn, its success line is the form's. */
  actionId?: string;
  /** Styles the submit button: `danger` for what cannot be undone. */
  tone?: 'danger' | 'secondary';
  /** What the form is for, to assistive technology (a region of its own when given). */
  label?: string;
  children?: ReactNode;
  className?: string;
}

/**
 * A form whose refusal is shown where it belongs (docs/decisions.md D34): each field lists the service's messages
 * for its own name beside itself, and whatever no field claims is listed next to the submit button, in an alert.
 * Fields render before that list, so by then every field has said which names it shows.
 */
export function Form({
  submitLabel,
  onSubmit,
  clearOnDone,
  refusal,
  busy,
  done,
  actionId,
  tone,
  label,
  children,
  className,
}: FormProps) {
  useDrawnForm(actionId);
  const shown = useRef(new Set<string>()).current;
  shown.clear();
  // `busy` is state, seen from the next render on: two submits in one tick both passed it and sent the action twice.
  const submitting = useRef(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || submitting.current) return;
    submitting.current = true;
    const form = event.currentTarget;
    try {
      const answer = await onSubmit(new FormData(form));
      if (clearOnDone && answer !== undefined) form.reset();
    } finally {
      submitting.current = false;
    }
  };
  return (
    <FormContext.Provider value={{ refusal, shown }}>
      <form className={className ?? 'form'} onSubmit={(event) => void submit(event)} aria-label={label} noValidate>
        {children}
        <Unplaced refusal={refusal} shown={shown} />
        <button type="submit" disabled={busy} className={tone}>
          {submitLabel}
        </button>
        {done && !refusal && (
          <p role="status" className="done">
            {done}
          </p>
        )}
      </form>
    </FormContext.Provider>
  );
}

function Unplaced({ refusal, shown }: { refusal?: Refusal; shown: Set<string> }) {
  const messages = unplacedMessages(refusal, [...shown]);
  if (messages.length === 0) return null;
  return (
    <div role="alert" className="refusal">
      {messages.map((message) => (
        <p key={message}>{message}</p>
      ))}
    </div>
  );
}

/** A text field's value as submitted, trimmed ('' when the form has no such field). */
export function formText(data: FormData, name: string): string {
  const value = data.get(name);
  return typeof value === 'string' ? value.trim() : '';
}

/** The id, label and error list every field shares; `name` is the argument the service names in a refusal. */
function useField(name: string, errorName = name) {
  const { refusal, shown } = useContext(FormContext);
  shown.add(errorName);
  const id = useId();
  const messages = refusal?.fields[errorName] ?? [];
  const errorId = `${id}-error`;
  const describedBy = messages.length > 0 ? errorId : undefined;
  const errors =
    messages.length > 0 ? (
      <ul id={errorId} className="field-errors">
        {messages.map((message) => (
          <li key={message}>{message}</li>
        ))}
      </ul>
    ) : null;
  return { id, errors, aria: { 'aria-invalid': messages.length > 0 || undefined, 'aria-describedby': describedBy } };
}

type FieldProps = {
  name: string;
  label: string;
  hint?: string;
  errorName?: string;
  /** Ids of what else describes the control, read after its hint (a count of characters under it). */
  describedBy?: string;
};

/** The props every control gets: its id, name, invalid state, and what describes it (the hint, then the errors). */
interface ControlProps {
  id: string;
  name: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

/**
 * A labelled control with its hint and the service's messages for its name: the one frame of every field, the
 * control drawn by `control` with the props that tie it to its label, hint and errors.
 */
function Field({
  name,
  label,
  hint,
  errorName,
  describedBy: more,
  control,
}: FieldProps & { control: (props: ControlProps) => ReactNode }) {
  const field = useField(name, errorName);
  const hintId = hint ? `${field.id}-hint` : undefined;
  const describedBy = [hintId, more, field.aria['aria-describedby']].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      {hint && (
        <span id={hintId} className="hint">
          {hint}
        </span>
      )}
      {control({ id: field.id, name, 'aria-invalid': field.aria['aria-invalid'], 'aria-describedby': describedBy })}
      {field.errors}
    </div>
  );
}

export function TextField({
  name,
  label,
  hint,
  errorName,
  describedBy,
  ...input
}: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Field {...{ name, label, hint, errorName, describedBy }} control={(props) => <input {...props} {...input} />} />
  );
}

export function FileField(props: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  return <TextField {...props} type="file" />;
}

export function TextArea({
  name,
  label,
  hint,
  errorName,
  describedBy,
  ...area
}: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <Field
      {...{ name, label, hint, errorName, describedBy }}
      control={(props) => <textarea rows={3} {...props} {...area} />}
    />
  );
}

export function SelectField({
  name,
  label,
  hint,
  errorName,
  options,
  ...select
}: FieldProps & SelectHTMLAttributes<HTMLSelectElement> & { options: { value: string; label: string }[] }) {
  return (
    <Field
      {...{ name, label, hint, errorName }}
      control={(props) => (
        <select {...props} {...select}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    />
  );
}

/** The file a file field holds, or undefined when none was chosen. */
export function formFile(data: FormData, name: string): File | undefined {
  const value = data.get(name);
  return value instanceof File && value.size > 0 ? value : undefined;
}

/** The service's messages for `name` where no single input stands for it (a list of uploaded files). */
export function FieldErrors({ name }: { name: string }) {
  return useField(name).errors;
}
