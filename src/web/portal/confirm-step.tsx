import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { Refusal } from '../shared/refusal';

/** Whether a confirmation is shown, and the ways into it and back out of it (`ConfirmStep`). */
export interface Confirmation {
  shown: boolean;
  /** The button that asks: shows the confirmation in its place. */
  ask: () => void;
  /** The way back: the button is drawn again and has the focus again. */
  keep: () => void;
  /** The act was done: the confirmation goes, and what says so takes the focus (`ActDone`). */
  close: () => void;
  /** The ref of the button that asks, which takes the focus back when the confirmation was left by its way back. */
  asker: (button: HTMLButtonElement | null) => void;
}

/** A confirmation's state; the keyboard's place is kept whichever way it is left (D35). */
export function useConfirmation(): Confirmation {
  const [shown, setShown] = useState(false);
  const back = useRef(false);
  const asker = useCallback((button: HTMLButtonElement | null) => {
    if (!button || !back.current) return;
    back.current = false;
    button.focus();
  }, []);
  return {
    shown,
    ask: () => setShown(true),
    keep: () => {
      back.current = true;
      setShown(false);
    },
    close: () => setShown(false),
    asker,
  };
}

/**
 * What cannot be undone, asked once more (D33, D35): what it does, the act, and a way back. The focus moves to the
 * act, which replaced the button that asked for it, so a keyboard's place is not lost; the way back returns it there.
 * A refusal of the act is said here, the confirmation staying, so the act can be tried again or left.
 */
export function ConfirmStep({
  question,
  consequence,
  act,
  keep,
  busy,
  refusal,
  confirmation,
  onAct,
}: {
  /** The group's name to assistive technology ("Delete this order's documents?"). */
  question: string;
  consequence: string;
  act: string;
  keep: string;
  busy: boolean;
  refusal?: Refusal;
  confirmation: Confirmation;
  /** Does the act; the step closes once it answers without a refusal. */
  onAct: () => Promise<{ error?: unknown }>;
}) {
  const actButton = useRef<HTMLButtonElement>(null);
  useEffect(() => actButton.current?.focus(), []);
  return (
    <div className="row-form" role="group" aria-label={question}>
      <p>{consequence}</p>
      <button
        ref={actButton}
        type="button"
        className="danger"
        disabled={busy}
        onClick={() =>
          void onAct().then(({ error }) => {
            if (!error) confirmation.close();
          })
        }
      >
        {act}
      </button>
      <button type="button" className="secondary" onClick={confirmation.keep}>
        {keep}
      </button>
      {refusal?.messages.map((message) => (
        <p key={message} role="alert" className="refusal">
          {message}
        </p>
      ))}
    </div>
  );
}

/** Stable, so that a drawn line is focused once, as it arrives, and not again at every drawing. */
const focusOnArrival = (element: HTMLElement | null) => element?.focus();

/**
 * What an act asked once more did ("Rita Leaving was removed."), said where its confirmation was: it takes the focus
 * the act's button had, which is gone, so a keyboard or a screen reader is told and keeps its place.
 */
export function ActDone({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="done" tabIndex={-1} ref={focusOnArrival}>
      {children}
    </p>
  );
}
