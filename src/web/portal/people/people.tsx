import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { Form, formText, SelectField, TextField } from '../../shared/form';
import { graphql } from '../../shared/gql';
import { Pending } from '../../shared/layout';
import { when } from '../format';
import { useMe } from '../member-context';
import { ActDone, ConfirmStep, useConfirmation } from '../confirm-step';
import { personRefusal } from '../refusal';
import { MemberRows, ROLES } from './member-rows';
import { Retention } from './retention';

const Members = graphql(`
  query PortalMembers {
    members(perPage: 100) {
      items {
        id
        name
        email
        role
        status
        lastSignInAt
      }
    }
  }
`);

const Invite = graphql(`
  mutation PortalInviteMember($email: String!, $name: String!, $role: MemberRole!) {
    inviteMember(email: $email, name: $name, role: $role) {
      id
      name
    }
  }
`);

const RegenerateKey = graphql(`
  mutation PortalRegenerateApiKey {
    regenerateAccountApiKey {
      id
      apiKeyLast4
      apiKeyIssuedAt
    }
  }
`);

/**
 * An admin's page: the account's people and their roles (changed or removed), inviting another, how long documents
 * are kept, and the account's API key.
 */
export function People() {
  const [{ data, fetching, error }, refresh] = useQuery({ query: Members });
  const [invited, invite] = useMutation(Invite);
  const [forms, nextForm] = useState(0);
  const add = async (form: FormData) => {
    const role = formText(form, 'role') as 'ADMIN' | 'MEMBER' | 'VIEWER';
    const answer = await invite({ email: formText(form, 'email'), name: formText(form, 'name'), role });
    if (!answer.error) {
      nextForm((n) => n + 1);
      refresh({ requestPolicy: 'network-only' });
    }
  };
  return (
    <>
      <h1>People and settings</h1>
      <Pending fetching={fetching && !data} error={error} />
      {data && <MemberRows members={data.members.items} changed={() => refresh({ requestPolicy: 'network-only' })} />}
      <h2>Invite someone</h2>
      {invited.data && (
        <p role="status" className="done">
          {invited.data.inviteMember.name} was invited by e-mail.
        </p>
      )}
      <Form
        key={forms}
        submitLabel="Invite"
        onSubmit={add}
        refusal={personRefusal(invited.error, ['name', 'email', 'role'])}
        busy={invited.fetching}
      >
        <TextField name="name" label="Name" autoComplete="off" />
        <TextField name="email" label="E-mail" type="email" autoComplete="off" />
        <SelectField name="role" label="Role" options={ROLES} />
      </Form>
      <Retention />
      <ApiKey />
    </>
  );
}

/** The key is never shown here: a new one goes to the account's e-mail and the old one stops at once. */
function ApiKey() {
  const me = useMe();
  const [regenerated, regenerate] = useMutation(RegenerateKey);
  const confirmation = useConfirmation();
  const key = regenerated.data?.regenerateAccountApiKey ?? me;
  return (
    <section aria-labelledby="api-key">
      <h2 id="api-key">API key</h2>
      <p>
        {key.apiKeyLast4
          ? `The current key ends in ${key.apiKeyLast4} (issued ${when(key.apiKeyIssuedAt)}).`
          : 'The account has no API key.'}
      </p>
      {regenerated.data && !confirmation.shown && (
        <ActDone>A new key was e-mailed to {me.email}. The old one no longer works.</ActDone>
      )}
      {confirmation.shown ? (
        <ConfirmStep
          question="Regenerate the API key?"
          consequence={`Programs using the current key stop working at once. The new key goes to ${me.email}.`}
          act="Regenerate now"
          keep="Keep the current key"
          busy={regenerated.fetching}
          refusal={personRefusal(regenerated.error)}
          confirmation={confirmation}
          onAct={() => regenerate({})}
        />
      ) : (
        <button ref={confirmation.asker} type="button" className="secondary" onClick={confirmation.ask}>
          Regenerate API key
        </button>
      )}
    </section>
  );
}
