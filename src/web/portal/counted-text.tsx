import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { TextArea, TextField } from '../shared/form';

interface CountedProps {
  name: string;
  label: string;
  hint?: string;
  /** The most characters the service takes for this field. */
  limit: number;
  /** Several lines (instructions, a reason) rather than one. */
  multiline?: boolean;
}

/** Characters as the service counts them: code points, the text trimmed. */
const lengthOf = (text: string) => [...text.trim()].length;
const number = (n: number) => n.toLocaleString('en');

/**
 * A text field with the service's limit (D35). It takes all that is typed or pasted, where a browser's `maxlength`
 * cut a paste short without a word; the count under it says what is left, or by how much the text is too long and
 * what the limit is, the field marked invalid until it fits. The service refuses a text too long beside the field,
 * in words that name the limit, so nothing is sent cut or lost. Going over is also announced, as the count would
 * be a word at every key if it were.
 */
export function CountedText({ limit, multiline, ...field }: CountedProps) {
  const [length, setLength] = useState(0);
  const countId = useId();
  const countLine = useRef<HTMLParagraphElement>(null);
  // A form emptied after it was sent (`reset`) fires no input: the count starts again with it.
  useEffect(() => {
    const form = countLine.current?.closest('form');
    const restart = () => setLength(0);
    form?.addEventListener('reset', restart);
    return () => form?.removeEventListener('reset', restart);
  }, []);
  const over = length - limit;
  const count =
    over > 0
      ? `${number(over)} ${over === 1 ? 'character' : 'characters'} too many: at most ${number(limit)}.`
      : `${number(limit - length)} of ${number(limit)} characters left.`;
  const counted = {
    ...field,
    describedBy: countId,
    onInput: (event: FormEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setLength(lengthOf(event.currentTarget.value)),
    ...(over > 0 ? { 'aria-invalid': true } : {}),
  };
  return (
    <>
      {multiline ? <TextArea {...counted} /> : <TextField {...counted} />}
      <p id={countId} ref={countLine} className={over > 0 ? 'count over' : 'count'}>
        {count}
      </p>
      <p className="visually-hidden" role="status">
        {over > 0 ? count : ''}
      </p>
    </>
  );
}
