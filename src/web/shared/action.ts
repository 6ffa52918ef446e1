import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import {
  createContext,
  createElement,
  useCallback,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useMutation, useQuery, type AnyVariables, type UseQueryArgs, type UseQueryResponse } from 'urql';
import { fieldRefusal, refusalOf, refusedForState, type Refusal } from './refusal';

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

/** A line the screen says for an action once its form is gone: its success, or a refusal for a state since changed. */
interface Said {
  id: string;
  text: string;
  refused?: boolean;
}

interface Scope {
  last?: string;
  /** The latest action's success line. */
  said?: Said;
  /** The actions whose form is drawn now: their line is the form's to say. */
  drawn: ReadonlySet<string>;
  /** How many times an action was refused for a state the screen no longer showed: its queries read again each time. */
  staleness: number;
  stale: () => void;
  ran: (id: string) => void;
  say: (id: string, said: Omit<Said, 'id'>) => void;
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
  const [said, setSaid] = useState<Said>();
  const [drawn, setDrawn] = useState<ReadonlySet<string>>(new Set());
  const [staleness, setStaleness] = useState(0);
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
    staleness,
    stale: () => setStaleness((count) => count + 1),
    ran: (id) => (setLast(id), setSaid(undefined)),
    say: (id, line) => setSaid({ id, ...line }),
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
  if (!said || said.id !== scope.last || scope.drawn.has(said.id)) return null;
  return said.refused
    ? createElement('div', { role: 'alert', className: 'refusal' }, createElement('p', null, said.text))
    : createElement('p', { role: 'status', className: 'done' }, said.text);
}

/**
 * A mutation as a form runs it: its refusal for the form to place beside the fields, whether it is running, and a
 * line saying what the last success did (while no other action of the screen ran since), said by the form, or by
 * the screen once the form is gone (`ScreenOutcome`). The screens' queries refresh themselves (urql refetches every
 * query that read a type the mutation answered).
 */
export function useAction<D, V extends AnyVariables>(
  document: TypedDocumentNode<D, V>,
  /** The success line, or how to write it from the answer (what a cancel kept, which the service decides). */
  doneMessage: string | ((data: D) => string),
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
      const stale = refusedForState(answer.error);
      if (stale) {
        // The screen is read again and may no longer draw this form (a hold refused on an order held meanwhile):
        // the screen says the refusal then.
        scope?.say(id, { text: stale, refused: true });
        scope?.stale();
      }
      if (answer.error || !answer.data) return undefined;
      const line = typeof doneMessage === 'string' ? doneMessage : doneMessage(answer.data);
      setDone(line);
      scope?.say(id, { text: line });
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

/**
 * A screen's query, read again from the service whenever one of the screen's actions is refused for the state of what
 * it acts on (someone else moved the order meanwhile): the page then shows what is true, beside the refusal.
 */
export function useScreenQuery<D, V extends AnyVariables>(args: UseQueryArgs<V, D>): UseQueryResponse<D, V> {
  const answer = useQuery(args);
  const refetch = useRef(answer[1]);
  refetch.current = answer[1];
  const staleness = useContext(LastAction)?.staleness ?? 0;
  useEffect(() => {
    if (staleness > 0) refetch.current({ requestPolicy: 'network-only' });
  }, [staleness]);
  return answer;
}
