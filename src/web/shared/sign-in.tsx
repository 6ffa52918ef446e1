import { useState } from 'react';
import { useMutation } from 'urql';
import { Form, formText, TextField } from './form';
import { graphql } from './gql';
import type { SignInMutation } from './gql/graphql';
import { refusalOf, type Refusal } from './refusal';

const RequestCode = graphql(`
  mutation RequestSignInCode($email: String!) {
    requestSignInCode(email: $email)
  }
`);

const SignInWithCode = graphql(`
  mutation SignIn($email: String!, $code: String!) {
    signIn(email: $email, code: $code) {
      token
      staff {
        id
      }
      member {
        id
      }
    }
  }
`);

export type SignedIn = SignInMutation['signIn'];

export interface SignInProps {
  title: string;
  /** Whether this application is for the one who signed in: a refusal's message when it is not. */
  refuse: (signedIn: SignedIn) => string | undefined;
  onSignedIn: (token: string) => void;
  /** Signs out a session this application refused. */
  end: (token: string) => void;
}

/**
 * Sign-in with an e-mailed code (docs/decisions.md D28): "Send code" mails a 6-digit code, "Sign in" exchanges it
 * for a session. In the sandbox the page links the outbox, where the code can be read.
 */
export function SignIn({ title, refuse, onSignedIn, end }: SignInProps) {
  const [email, setEmail] = useState<string>();
  const [asked, ask] = useMutation(RequestCode);
  const [signed, signIn] = useMutation(SignInWithCode);
  const [refused, setRefused] = useState<Refusal>();
  const sandbox = document.body.dataset.env === 'sandbox';

  const send = async (data: FormData) => {
    const address = formText(data, 'email');
    const answer = await ask({ email: address });
    if (!answer.error) setEmail(address);
  };
  const enter = async (data: FormData) => {
    setRefused(undefined);
    const answer = await signIn({ email: email!, code: formText(data, 'code') });
    const session = answer.data?.signIn;
    if (!session) return;
    const refusal = refuse(session);
    if (refusal) {
      end(session.token);
      setRefused({ fields: {}, messages: [refusal] });
    } else onSignedIn(session.token);
  };

  return (
    <main id="main" className="sign-in">
      <h1>{title}</h1>
      {email === undefined ? (
        <Form submitLabel="Send code" onSubmit={send} refusal={refusalOf(asked.error)} busy={asked.fetching}>
          <TextField name="email" label="E-mail" type="email" autoComplete="email" required />
        </Form>
      ) : (
        <>
          <p role="status">
            A sign-in code was sent to <strong>{email}</strong> if it belongs to someone who may sign in here.
          </p>
          <Form
            submitLabel="Sign in"
            onSubmit={enter}
            refusal={refused ?? refusalOf(signed.error)}
            busy={signed.fetching}
          >
            <TextField
              name="code"
              label="Code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={20}
              required
              autoFocus
            />
          </Form>
          <button type="button" className="link" onClick={() => setEmail(undefined)}>
            Use another e-mail
          </button>
        </>
      )}
      {sandbox && (
        <p className="hint">
          Sandbox: codes are not mailed out; read them in the <a href="/sandbox/mail">sandbox outbox</a>.
        </p>
      )}
    </main>
  );
}
