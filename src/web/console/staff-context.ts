import { createContext, useContext } from 'react';
import type { StaffMeQuery } from '../shared/gql/graphql';

export type Me = StaffMeQuery['staffMe'];

/** Who is signed in, for the screens that act on "me" (assigned to me) or show only what a role may do. */
export const StaffContext = createContext<Me | undefined>(undefined);

export function useMe(): Me {
  return useContext(StaffContext)!;
}
