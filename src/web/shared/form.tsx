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
  onSubmit: (data: FormData) => unknown;
  refusal?: Refusal;
  busy?: boolean;
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
export function Form({ submitLabel, onSubmit, refusal, busy, label, children, className }: FormProps) {
  const shown = useRef(new Set<string>()).current;
  shown.clear();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!busy) void onSubmit(new FormData(event.currentTarget));
  };
  return (
    <FormContext.Provider value={{ refusal, shown }}>
      <form className={className ?? 'form'} onSubmit={submit} aria-label={label} noValidate>
        {children}
        <Unplaced refusal={refusal} shown={shown} />
        <button type="submit" disabled={busy} aria-disabled={busy}>
          {submitLabel}
        </button>
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

type FieldProps = { name: string; label: string; hint?: string; errorName?: string };

function Hint({ id, hint }: { id: string; hint?: string }) {
  return hint ? (
    <span id={`${id}-hint`} className="hint">
      {hint}
    </span>
  ) : null;
}

export function TextField({
  name,
  label,
  hint,
  errorName,
  ...input
}: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  const field = useField(name, errorName);
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <Hint id={field.id} hint={hint} />
      <input id={field.id} name={name} {...field.aria} {...withHint(field, hint)} {...input} />
      {field.errors}
    </div>
  );
}

export function TextArea({
  name,
  label,
  hint,
  errorName,
  ...area
}: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const field = useField(name, errorName);
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <Hint id={field.id} hint={hint} />
      <textarea id={field.id} name={name} rows={3} {...field.aria} {...withHint(field, hint)} {...area} />
      {field.errors}
    </div>
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
  const field = useField(name, errorName);
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <Hint id={field.id} hint={hint} />
      <select id={field.id} name={name} {...field.aria} {...withHint(field, hint)} {...select}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {field.errors}
    </div>
  );
}

/** The service's messages for `name` where no single input stands for it (a list of uploaded files). */
export function FieldErrors({ name }: { name: string }) {
  return useField(name).errors;
}

/** The hint joins the error list in what a screen reader reads with the field. */
function withHint(field: ReturnType<typeof useField>, hint?: string) {
  if (!hint) return {};
  const ids = [`${field.id}-hint`, field.aria['aria-describedby']].filter(Boolean).join(' ');
  return { 'aria-describedby': ids };
}
