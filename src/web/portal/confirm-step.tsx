import { useEffect, useRef } from 'react';

/**
 * What cannot be undone, asked once more (D33, D35): what it does, the act, and a way back. The focus moves to the
 * act, which replaced the button that asked for it, so a keyboard's place is not lost.
 */
export function ConfirmStep({
  question,
  consequence,
  act,
  keep,
  busy,
  onAct,
  onKeep,
}: {
  /** The group's name to assistive technology ("Delete this order's documents?"). */
  question: string;
  consequence: string;
  act: string;
  keep: string;
  busy: boolean;
  onAct: () => void;
  onKeep: () => void;
}) {
  const actButton = useRef<HTMLButtonElement>(null);
  useEffect(() => actButton.current?.focus(), []);
  return (
    <div className="row-form" role="group" aria-label={question}>
      <p>{consequence}</p>
      <button ref={actButton} type="button" className="danger" disabled={busy} onClick={onAct}>
        {act}
      </button>
      <button type="button" className="secondary" onClick={onKeep}>
        {keep}
      </button>
    </div>
  );
}
