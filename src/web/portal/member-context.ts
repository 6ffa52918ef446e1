import { createContext, useContext } from 'react';
import type { PortalMeQuery } from '../shared/gql/graphql';

export type Me = PortalMeQuery['me'] & { viewer: NonNullable<PortalMeQuery['me']['viewer']> };

/** The account and the member signed in to it, for the screens that show only what the member's role may do. */
export const MemberContext = createContext<Me | undefined>(undefined);

export function useMe(): Me {
  return useContext(MemberContext)!;
}

/** A viewer reads; members and admins order, pay, message and ask for revisions (README "Client portal"). */
export const mayAct = (me: Me) => me.viewer.role !== 'VIEWER';
export const isAdmin = (me: Me) => me.viewer.role === 'ADMIN';

/** An account on terms places orders on account and is invoiced monthly (docs/decisions.md D31). */
export const onTerms = (me: Me) => me.billingTerms !== 'CHECKOUT';
