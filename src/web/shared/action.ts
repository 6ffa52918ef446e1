import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { useState } from 'react';
import { useMutation, type AnyVariables } from 'urql';
import { refusalOf, type Refusal } from './refusal';

export interface Action<V, D = unknown> {
  /** The answer's data, or undefined when refused (the refusal is then in `form`). */
  run: (variables: V) => Promise<D | undefined>;
  /** What the form shows: the refusal, whether it runs, and the message of the last success. */
  form: { refusal?: Refusal; busy: boolean; done?: string };
}

/**
 * A mutation as a form runs it: its refusal for the form to place beside the fields, whether it is running, and a
 * line saying what the last success did. The screens' queries refresh themselves (urql refetches every query that
 * read a type the mutation answered).
 */
export function useAction<D, V extends AnyVariables>(
  document: TypedDocumentNode<D, V>,
  doneMessage: string,
): Action<V, D> {
  const [result, execute] = useMutation(document);
  const [done, setDone] = useState<string>();
  return {
    run: async (variables) => {
      setDone(undefined);
      const answer = await execute(variables);
      if (answer.error || !answer.data) return undefined;
      setDone(doneMessage);
      return answer.data;
    },
    form: { refusal: refusalOf(result.error), busy: result.fetching, done },
  };
}
