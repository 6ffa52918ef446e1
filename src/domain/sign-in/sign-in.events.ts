/**
 * What happened in a sign-in that other areas act on, raised in the transaction that did it (docs/architecture.md
 * "Domain events"): a code issued to someone who can sign in (D27). The code travels only here, to the message that
 * shows it; it is stored hashed.
 */
export interface SignInEvent {
  kind: 'code_issued';
  email: string;
  code: string;
  validMinutes: number;
}
