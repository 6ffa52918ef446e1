import { useState } from 'react';
import { useMutation, type CombinedError } from 'urql';
import { graphql } from '../../shared/gql';
import type { MemberRole, PortalMembersQuery } from '../../shared/gql/graphql';
import { statusLabel, when } from '../format';
import { useMe } from '../member-context';
import { ActDone, ConfirmStep, useConfirmation } from '../confirm-step';
import { personRefusal } from '../refusal';

const UpdateRole = graphql(`
  mutation PortalUpdateMemberRole($id: ID!, $role: MemberRole!) {
    updateMemberRole(id: $id, role: $role) {
      id
      role
    }
  }
`);

const Remove = graphql(`
  mutation PortalRemoveMember($id: ID!) {
    removeMember(id: $id) {
      id
      status
    }
  }
`);

export const ROLES: { value: MemberRole; label: string }[] = [
  { value: 'MEMBER', label: 'Member: orders, pays and follows orders' },
  { value: 'VIEWER', label: 'Viewer: reads only' },
  { value: 'ADMIN', label: 'Admin: also manages people and settings' },
];

type Member = PortalMembersQuery['members']['items'][number];

/**
 * The account's people, each with their role to change and a "Remove" that asks once more, since it signs the person
 * out at once. The signed-in admin's own row has neither: the service keeps the last admin, and a slip on one's own
 * row would lock one out. Each control names its person, so a screen reader's list of buttons says whose it is.
 */
export function MemberRows({ members, changed }: { members: Member[]; changed: () => void }) {
  const me = useMe();
  const [, update] = useMutation(UpdateRole);
  const [done, setDone] = useState<{ message: string; removal: boolean }>();
  // The last answer's refusal only: an earlier one is no longer true.
  const [error, setError] = useState<CombinedError>();
  const saved = (message: string) => (answer: { error?: CombinedError }) => {
    setError(answer.error);
    setDone(answer.error ? undefined : { message, removal: false });
    if (!answer.error) changed();
  };
  const removed = (message: string) => {
    setError(undefined);
    setDone({ message, removal: true });
    changed();
  };
  const refusal = personRefusal(error);
  return (
    <>
      <table className="cards" aria-label="People">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">E-mail</th>
            <th scope="col">Role</th>
            <th scope="col">Status</th>
            <th scope="col">Last signed in</th>
          </tr>
        </thead>
        <tbody>
          {members.map((member) => {
            const editable = member.id !== me.viewer.id && member.status !== 'REMOVED';
            return (
              <tr key={member.id}>
                <td data-label="Name">{member.name}</td>
                <td data-label="E-mail">{member.email}</td>
                <td data-label="Role">
                  {editable ? (
                    <form
                      className="row-form"
                      onSubmit={(event) => {
                        event.preventDefault();
                        const role = new FormData(event.currentTarget).get('role') as MemberRole;
                        void update({ id: member.id, role }).then(
                          saved(`${member.name} is now ${role.toLowerCase()}.`),
                        );
                      }}
                    >
                      <select name="role" defaultValue={member.role} aria-label={`Role of ${member.name}`}>
                        {ROLES.map((role) => (
                          <option key={role.value} value={role.value}>
                            {statusLabel(role.value)}
                          </option>
                        ))}
                      </select>
                      <button type="submit" className="secondary" aria-label={`Save role of ${member.name}`}>
                        Save role
                      </button>
                    </form>
                  ) : (
                    statusLabel(member.role)
                  )}
                </td>
                <td data-label="Status">
                  {statusLabel(member.status)}
                  {editable && <Removal member={member} removed={removed} />}
                </td>
                <td data-label="Last signed in">{when(member.lastSignInAt)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {refusal && (
        <div role="alert" className="refusal">
          {refusal.messages.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </div>
      )}
      {/* A removed person's row is gone with its button: the line saying so takes the focus. */}
      {done?.removal && <ActDone key={done.message}>{done.message}</ActDone>}
      {done && !done.removal && !refusal && (
        <p role="status" className="done">
          {done.message}
        </p>
      )}
    </>
  );
}

/** A person's "Remove", asked once more in its place; a refusal (the last admin) is said there. */
function Removal({ member, removed }: { member: Member; removed: (message: string) => void }) {
  const [answer, remove] = useMutation(Remove);
  const confirmation = useConfirmation();
  if (!confirmation.shown)
    return (
      <button
        ref={confirmation.asker}
        type="button"
        className="secondary"
        aria-label={`Remove ${member.name}`}
        onClick={confirmation.ask}
      >
        Remove
      </button>
    );
  return (
    <ConfirmStep
      question={`Remove ${member.name}?`}
      consequence={`${member.name} is signed out at once and can no longer sign in.`}
      act={`Remove ${member.name} now`}
      keep="Keep"
      busy={answer.fetching}
      refusal={personRefusal(answer.error)}
      confirmation={confirmation}
      onAct={async () => {
        const answer = await remove({ id: member.id });
        if (!answer.error) removed(`${member.name} was removed.`);
        return answer;
      }}
    />
  );
}
