import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { createContext, useContext, useId, useState, createElement, type ReactNode } from 'react';
import { useMutation, type AnyVariables } from 'urql';
import { refusalOf, type Refusal } from './refusal';

export interface Action<V, D = unknown> {
  /** The answer's data, or undefined when refused (the refusal is then in `form`). */
  run: (variables: V) => Promise<D | undefined>;
  /** What the form shows: the refusal, whether it runs, and the message of the last success. */
  form: { refusal?: Refusal; busy: boolean; done?: string };
}

/**
 * Which action of a screen ran last. Only its success line shows: after "Release", the "Order held." of the hold
 * form (drawn again once the order is released) would say the opposite of what is now true.
 */
const LastAction = createContext<
  | {
      last?: string;
      /** The success line of the latest action, when it is shown by the screen (`ScreenOutcome`). */
      said?: { id: string; text: string };
      ran: (id: string) => void;
      say: (id: string, text: string) => void;
    }
  | undefined
>(undefined);

/** One screen's actions, of which only the latest keeps its success line. */
export function ActionScope({ children }: { children: ReactNode }) {
  const [last, setLast] = useState<string>();
  const [said, setSaid] = useState<{ id: string; text: string }>();
  const ran = (id: string) => (setLast(id), setSaid(undefined));
  const say = (id: string, text: string) => setSaid({ id, text });
  return createElement(LastAction.Provider, { value: { last, said, ran, say } }, children);
}

/**
 * Where the screen shows the success line of an action that takes its own form away when it succeeds (an account
 * approved leaves the "Pending" list, and its "Approve" button goes with it): there the line would be gone before
 * anyone read it.
 */
export function ScreenOutcome() {
  const scope = useContext(LastAction);
  const text = scope?.said && scope.said.id === scope.last ? scope.said.text : undefined;
  return text ? createElement('p', { role: 'status', className: 'done' }, text) : null;
}

/**
 * A mutation as a form runs it: its refusal for the form to place beside the fields, whether it is running, and a
 * line saying what the last success did (while no other action of the screen ran since). The screens' queries
 * refresh themselves (urql refetches every query that read a type the mutation answered).
 */
export function useAction<D, V extends AnyVariables>(
  document: TypedDocumentNode<D, V>,
  doneMessage: string,
  /** `screen`: the success line is the screen's (`ScreenOutcome`), for an action whose success removes its form. */
  shownBy: 'form' | 'screen' = 'form',
): Action<V, D> {
  const [result, execute] = useMutation(document);
  const [done, setDone] = useState<string>();
  const id = useId();
  const scope = useContext(LastAction);
  const latest = !scope || scope.last === id;
  return {
    run: async (variables) => {
      setDone(undefined);
      scope?.ran(id);
      const answer = await execute(variables);
      if (answer.error || !answer.data) return undefined;
      setDone(doneMessage);
      if (shownBy === 'screen') scope?.say(id, doneMessage);
      return answer.data;
    },
    form: {
      refusal: latest ? refusalOf(result.error) : undefined,
      busy: result.fetching,
      done: latest && shownBy === 'form' ? done : undefined,
    },
  };
}
