import { ScreenOutcome, useAction } from '../../shared/action';
import { Form, formText, TextField } from '../../shared/form';
import { graphql } from '../../shared/gql';
import { useMe } from '../staff-context';

const UpdateOwnProfile = graphql(`
  mutation UpdateOwnProfile($id: ID!, $name: String!, $credentials: String) {
    updateStaffProfile(id: $id, name: $name, credentials: $credentials) {
      id
      name
      credentials
    }
  }
`);

/**
 * Everyone's own name and credentials as certificates print them (D20, D28): completing a certified order asks the
 * completer to add their credentials to their profile, and only admins have the staff screen, so every role has this.
 */
export function OwnProfile() {
  const me = useMe();
  const save = useAction(UpdateOwnProfile, 'Profile saved.');
  return (
    <>
      <h1>Your profile</h1>
      <ScreenOutcome />
      <p className="meta">
        {me.email}, {me.role.toLowerCase()}
      </p>
      <Form
        submitLabel="Save profile"
        onSubmit={(data) =>
          save.run({ id: me.id, name: formText(data, 'name'), credentials: formText(data, 'credentials') || null })
        }
        {...save.form}
      >
        <TextField name="name" label="Name" defaultValue={me.name} autoComplete="name" />
        <TextField
          name="credentials"
          label="Credentials (for certificates)"
          hint="Printed under your name on the certificates you complete, e.g. ATA-certified translator no. 123456."
          defaultValue={me.credentials ?? ''}
          autoComplete="off"
        />
      </Form>
    </>
  );
}
