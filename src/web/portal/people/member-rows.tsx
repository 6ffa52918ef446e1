import { useState } from 'react';
import { useMutation, type CombinedError } from 'urql';
import { graphql } from '../../shared/gql';
import type { MemberRole, PortalMembersQuery } from '../../shared/gql/graphql';
import { statusLabel, when } from '../format';
import { useMe } from '../member-context';
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
  const [removed, remove] = useMutation(Remove);
  const [confirming, setConfirming] = useState<string>();
  const [done, setDone] = useState<string>();
  // The last answer's refusal only: an earlier one of the other button is no longer true.
  const [error, setError] = useState<CombinedError>();
  const after = (message: string) => (answer: { error?: CombinedError }) => {
    setError(answer.error);
    if (answer.error) return setDone(undefined);
    setDone(message);
    setConfirming(undefined);
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
                          after(`${member.name} is now ${role.toLowerCase()}.`),
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
                  {editable && confirming !== member.id && (
                    <button
                      type="button"
                      className="secondary"
                      aria-label={`Remove ${member.name}`}
                      onClick={() => setConfirming(member.id)}
                    >
                      Remove
                    </button>
                  )}
                  {editable && confirming === member.id && (
                    <span className="row-form" role="group" aria-label={`Remove ${member.name}?`}>
                      <button
                        type="button"
                        className="danger"
                        disabled={removed.fetching}
                        onClick={() => void remove({ id: member.id }).then(after(`${member.name} was removed.`))}
                      >
                        Remove {member.name} now
                      </button>
                      <button type="button" className="secondary" onClick={() => setConfirming(undefined)}>
                        Keep
                      </button>
                    </span>
                  )}
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
      {done && !refusal && (
        <p role="status" className="done">
          {done}
        </p>
      )}
    </>
  );
}
