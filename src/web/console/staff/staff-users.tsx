import { useState } from 'react';
import { useQuery } from 'urql';
import { ScreenOutcome, useAction } from '../../shared/action';
import { pageOf } from '../../shared/filtered-list';
import { Form, formText, SelectField, TextField } from '../../shared/form';
import { formatDateTime, formatEnum } from '../../shared/format';
import { graphql } from '../../shared/gql';
import type { StaffRole, StaffUsersQuery } from '../../shared/gql/graphql';
import { Pending } from '../../shared/layout';
import { Pager } from '../../shared/pager';
import { useLocation } from '../../shared/router';

const StaffUsers = graphql(`
  query StaffUsers($page: Int, $perPage: Int) {
    staffUsers(page: $page, perPage: $perPage) {
      items {
        id
        name
        email
        role
        credentials
        createdAt
        deactivatedAt
      }
      pageInfo {
        page
        lastPage
        total
      }
    }
  }
`);
const CreateStaffUser = graphql(`
  mutation CreateStaffUser($name: String!, $email: String!, $role: StaffRole!, $credentials: String) {
    createStaffUser(name: $name, email: $email, role: $role, credentials: $credentials) {
      token
      staffUser {
        id
        name
      }
    }
  }
`);
const UpdateStaffUser = graphql(`
  mutation UpdateStaffUser($id: ID!, $name: String!, $role: StaffRole, $credentials: String) {
    updateStaffProfile(id: $id, name: $name, role: $role, credentials: $credentials) {
      id
      name
      role
      credentials
    }
  }
`);
const DeactivateStaffUser = graphql(`
  mutation DeactivateStaffUser($id: ID!) {
    deactivateStaffUser(id: $id) {
      id
      deactivatedAt
    }
  }
`);

const ROLES: StaffRole[] = ['ADMIN', 'DESK', 'TRANSLATOR'];
const roleOptions = ROLES.map((role) => ({ value: role, label: formatEnum(role) }));
type StaffUser = StaffUsersQuery['staffUsers']['items'][number];

/** The operator's staff and their roles (admins only, D28): add someone, change a role, deactivate. */
export function StaffUsersPage() {
  const location = useLocation();
  const [{ data, fetching, error }] = useQuery({
    query: StaffUsers,
    variables: { page: pageOf(location), perPage: 25 },
  });
  const staff = data?.staffUsers;
  return (
    <>
      <h1>Staff</h1>
      <ScreenOutcome />
      <AddStaffUser />
      <Pending fetching={fetching && !staff} error={error} />
      {staff && (
        <>
          <ul className="cards-list">
            {staff.items.map((user) => (
              <StaffCard key={user.id} user={user} />
            ))}
          </ul>
          <Pager location={location} page={staff.pageInfo.page} lastPage={staff.pageInfo.lastPage} />
        </>
      )}
    </>
  );
}

function AddStaffUser() {
  const create = useAction(CreateStaffUser, 'Added. They sign in with their e-mail.');
  const [created, setCreated] = useState<{ name: string; token: string }>();
  const submit = async (data: FormData) => {
    const variables = {
      name: formText(data, 'name'),
      email: formText(data, 'email'),
      role: formText(data, 'role') as StaffRole,
      credentials: formText(data, 'credentials') || undefined,
    };
    setCreated(undefined);
    const answer = await create.run(variables);
    if (answer) setCreated({ name: answer.createStaffUser.staffUser.name, token: answer.createStaffUser.token });
  };
  return (
    <section aria-labelledby="add-staff-heading">
      <h2 id="add-staff-heading">Add a staff member</h2>
      <Form submitLabel="Add staff member" onSubmit={submit} {...create.form}>
        <TextField name="name" label="Name" autoComplete="off" />
        <TextField name="email" label="E-mail" type="email" autoComplete="off" />
        <SelectField name="role" label="Role" options={roleOptions} defaultValue="DESK" />
        <TextField name="credentials" label="Credentials (for certificates)" autoComplete="off" />
      </Form>
      {created && (
        <p className="hint">
          The long-lived token of {created.name} for tools, shown this once (people sign in with their e-mail instead):{' '}
          <code className="token">{created.token}</code>
        </p>
      )}
    </section>
  );
}

function StaffCard({ user }: { user: StaffUser }) {
  const update = useAction(UpdateStaffUser, 'Saved.');
  const deactivate = useAction(DeactivateStaffUser, 'Deactivated; their sessions and token stop at once.');
  return (
    <li className="card" aria-label={user.name}>
      <h2>
        {user.name} <span className="badge">{formatEnum(user.role)}</span>{' '}
        {user.deactivatedAt && <span className="badge bad">Deactivated</span>}
      </h2>
      <p className="meta">
        {user.email}, since {formatDateTime(user.createdAt)}
      </p>
      {!user.deactivatedAt && (
        <div className="action-grid">
          <Form
            submitLabel="Save"
            label={`Change ${user.name}`}
            onSubmit={(data) =>
              update.run({
                id: user.id,
                name: formText(data, 'name'),
                role: formText(data, 'role') as StaffRole,
                credentials: formText(data, 'credentials') || null,
              })
            }
            {...update.form}
          >
            <TextField name="name" label="Name" defaultValue={user.name} />
            <SelectField name="role" label="Role" options={roleOptions} defaultValue={user.role} />
            <TextField name="credentials" label="Credentials" defaultValue={user.credentials ?? ''} />
          </Form>
          <Form
            submitLabel="Deactivate"
            tone="danger"
            label={`Deactivate ${user.name}`}
            onSubmit={() => deactivate.run({ id: user.id })}
            {...deactivate.form}
          />
        </div>
      )}
    </li>
  );
}
