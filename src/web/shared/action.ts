import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import {
  createContext,
  createElement,
  useCallback,
  useContext,
  useEffect,
  useId,
  useState,
  type ReactNode,
} from 'react';
import { useMutation, type AnyVariables } from 'urql';
import { fieldRefusal, refusalOf, type Refusal } from './refusal';

export interface Action<V, D = unknown> {
  /** The answer's data, or undefined when refused (the refusal is then in `form`). */
  run: (variables: V) => Promise<D | undefined>;
  /**
   * Refuses without asking the service, beside each named field (`amountCents`), for what the form could not read
   * (a number written as `3 h`): sent as it was read, it would reach the service as no value at all.
   */
  refuse: (fields: Record<string, string>) => undefined;
  /**
   * What the form shows: the refusal, whether it runs, and the message of the last success; `actionId` tells the
   * screen the form is drawn (`useDrawnForm`), so that the screen says the message once the form is gone.
   */
  form: { refusal?: Refusal; busy: boolean; done?: string; actionId: string };
}

interface Scope {
  last?: string;
  /** The latest action's success line. */
  said?: { id: string; text: string };
  /** The actions whose form is drawn now: their line is the form's to say. */
  drawn: ReadonlySet<string>;
  ran: (id: string) => void;
  say: (id: string, text: string) => void;
  draw: (id: string, drawn: boolean) => void;
}

/**
 * Which action of a screen ran last. Only its success line shows: after "Release", the "Order held." of the hold
 * form (drawn again once the order is released) would say the opposite of what is now true.
 */
const LastAction = createContext<Scope | undefined>(undefined);

/** One screen's actions, of which only the latest keeps its success line. */
export function ActionScope({ children }: { children: ReactNode }) {
  const [last, setLast] = useState<string>();
  const [said, setSaid] = useState<{ id: string; text: string }>();
  const [drawn, setDrawn] = useState<ReadonlySet<string>>(new Set());
  // The same function for the scope's life: a form's effect registers once, not at every render of the screen.
  const draw = useCallback(
    (id: string, on: boolean) =>
      setDrawn((before) => {
        const after = new Set(before);
        if (on) after.add(id);
        else after.delete(id);
        return after;
      }),
    [],
  );
  const scope: Scope = {
    last,
    said,
    drawn,
    ran: (id) => (setLast(id), setSaid(undefined)),
    say: (id, text) => setSaid({ id, text }),
    draw,
  };
  return createElement(LastAction.Provider, { value: scope }, children);
}

/** Called by a form that an action runs: while it is drawn, the action's success line is the form's. */
export function useDrawnForm(actionId: string | undefined): void {
  const draw = useContext(LastAction)?.draw;
  useEffect(() => {
    if (!actionId || !draw) return;
    draw(actionId, true);
    return () => draw(actionId, false);
  }, [actionId, draw]);
}

/**
 * Where a screen says the latest action's success line once the action's own form is gone: approving an account
 * takes its "Approve" button away (and the account out of the "Pending" list), completing a booking its "Complete"
 * form. Said only by the form, the line went with it, before anyone read it.
 */
export function ScreenOutcome() {
  const scope = useContext(LastAction);
  const said = scope?.said;
  const text = said && said.id === scope.last && !scope.drawn.has(said.id) ? said.text : undefined;
  return text ? createElement('p', { role: 'status', className: 'done' }, text) : null;
}

/**
 * A mutation as a form runs it: its refusal for the form to place beside the fields, whether it is running, and a
 * line saying what the last success did (while no other action of the screen ran since), said by the form, or by
 * the screen once the form is gone (`ScreenOutcome`). The screens' queries refresh themselves (urql refetches every
 * query that read a type the mutation answered).
 */
export function useAction<D, V extends AnyVariables>(
  document: TypedDocumentNode<D, V>,
  doneMessage: string,
): Action<V, D> {
  const [result, execute] = useMutation(document);
  const [done, setDone] = useState<string>();
  const [unread, setUnread] = useState<Refusal>();
  const id = useId();
  const scope = useContext(LastAction);
  const latest = !scope || scope.last === id;
  return {
    run: async (variables) => {
      setDone(undefined);
      setUnread(undefined);
      scope?.ran(id);
      const answer = await execute(variables);
      if (answer.error || !answer.data) return undefined;
      setDone(doneMessage);
      scope?.say(id, doneMessage);
      return answer.data;
    },
    refuse: (fields) => {
      setDone(undefined);
      scope?.ran(id);
      setUnread(fieldRefusal(fields));
      return undefined;
    },
    form: {
      refusal: latest ? (unread ?? refusalOf(result.error)) : undefined,
      busy: result.fetching,
      done: latest ? done : undefined,
      actionId: id,
    },
  };
}
