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
const LastAction = createContext<{ last?: string; ran: (id: string) => void } | undefined>(undefined);

/** One screen's actions, of which only the latest keeps its success line. */
export function ActionScope({ children }: { children: ReactNode }) {
  const [last, ran] = useState<string>();
  return createElement(LastAction.Provider, { value: { last, ran } }, children);
}

/**
 * A mutation as a form runs it: its refusal for the form to place beside the fields, whether it is running, and a
 * line saying what the last success did (while no other action of the screen ran since). The screens' queries
 * refresh themselves (urql refetches every query that read a type the mutation answered).
 */
export function useAction<D, V extends AnyVariables>(
  document: TypedDocumentNode<D, V>,
  doneMessage: string,
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
      return answer.data;
    },
    form: {
      refusal: latest ? refusalOf(result.error) : undefined,
      busy: result.fetching,
      done: latest ? done : undefined,
    },
  };
}
