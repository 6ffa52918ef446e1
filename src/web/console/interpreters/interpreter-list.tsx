import { useState } from 'react';
import { useQuery } from 'urql';
import { useAction } from '../../shared/action';
import { FilteredList, pageOf } from '../../shared/filtered-list';
import { Form, SelectField, TextField } from '../../shared/form';
import { formatEnum } from '../../shared/format';
import { graphql } from '../../shared/gql';
import type { InterpretationMode, InterpreterInput, InterpretersQuery } from '../../shared/gql/graphql';
import { useLocation, type Location } from '../../shared/router';
import { InterpreterForm, MODES } from './interpreter-form';

const Interpreters = graphql(`
  query Interpreters($language: String, $mode: InterpretationMode, $page: Int, $perPage: Int) {
    interpreters(language: $language, mode: $mode, includeInactive: true, page: $page, perPage: $perPage) {
      items {
        id
        name
        email
        languages
        modes
        qualifications
        credentials
        active
      }
      pageInfo {
        page
        lastPage
        total
      }
    }
  }
`);
const Create = graphql(`
  mutation CreateInterpreter($input: InterpreterInput!) {
    createInterpreter(input: $input) {
      id
    }
  }
`);
const Update = graphql(`
  mutation UpdateInterpreter($id: ID!, $input: InterpreterInput!) {
    updateInterpreter(id: $id, input: $input) {
      id
      name
      email
      languages
      modes
      qualifications
      credentials
      active
    }
  }
`);

const REFRESHED_BY_INTERPRETERS = { additionalTypenames: ['Interpreter'] };
type Interpreter = InterpretersQuery['interpreters']['items'][number];

/**
 * The interpreters the desk keeps (D32), active and not, by name: by a language they speak or a mode they work in;
 * added, changed, deactivated (no new booking is confirmed with them) and reactivated.
 */
export function InterpreterList() {
  const location = useLocation();
  const { query } = location;
  const [{ data, fetching, error }] = useQuery({
    query: Interpreters,
    // An empty list names no type, so a new interpreter must be said to refresh it (urql's document cache).
    context: REFRESHED_BY_INTERPRETERS,
    variables: {
      language: query.get('language') ?? undefined,
      mode: (query.get('mode') as InterpretationMode | null) ?? undefined,
      page: pageOf(location),
      perPage: 25,
    },
  });
  const create = useAction(Create, 'Interpreter added.');
  // The new interpreter's form starts empty again once one is added.
  const [added, setAdded] = useState(0);
  const add = {
    ...create,
    run: async (variables: { input: InterpreterInput }) => {
      const answer = await create.run(variables);
      if (answer) setAdded((n) => n + 1);
      return answer;
    },
  };
  const interpreters = data?.interpreters;
  return (
    <>
      <FilteredList
        heading="Interpreters"
        label="Filter interpreters"
        location={location}
        fields={['language', 'mode']}
        filters={<Filters location={location} />}
        fetching={fetching}
        error={error}
        pageInfo={interpreters?.pageInfo}
        one="interpreter"
        many="interpreters"
      >
        <ul className="cards-list">
          {interpreters?.items.map((interpreter) => (
            <InterpreterCard key={interpreter.id} interpreter={interpreter} />
          ))}
        </ul>
      </FilteredList>
      <section aria-labelledby="new-interpreter-heading">
        <h2 id="new-interpreter-heading">New interpreter</h2>
        <InterpreterForm
          key={added}
          action={add}
          variables={(input) => ({ input })}
          submitLabel="Add interpreter"
          label="New interpreter"
        />
      </section>
    </>
  );
}

function Filters({ location }: { location: Location }) {
  const language = location.query.get('language') ?? '';
  const mode = location.query.get('mode') ?? '';
  return (
    <>
      <TextField name="language" label="Language" hint="A catalog code: es" defaultValue={language} key={language} />
      <SelectField
        name="mode"
        label="Mode"
        defaultValue={mode}
        key={mode}
        options={[{ value: '', label: 'Any mode' }, ...MODES.map((m) => ({ value: m, label: formatEnum(m) }))]}
      />
    </>
  );
}

function InterpreterCard({ interpreter }: { interpreter: Interpreter }) {
  const update = useAction(Update, 'Interpreter saved.');
  const toggle = useAction(Update, interpreter.active ? 'Interpreter deactivated.' : 'Interpreter reactivated.');
  const id = interpreter.id;
  return (
    <li className="card" aria-label={interpreter.name}>
      <h2>
        {interpreter.name} {!interpreter.active && <span className="badge bad">Inactive</span>}
      </h2>
      <dl className="facts">
        <dt>E-mail</dt>
        <dd>{interpreter.email}</dd>
        <dt>Languages</dt>
        <dd>{interpreter.languages.join(', ')}</dd>
        <dt>Modes</dt>
        <dd>{interpreter.modes.map(formatEnum).join(', ')}</dd>
        <dt>Qualifications</dt>
        <dd>{interpreter.qualifications.map(formatEnum).join(', ') || 'None'}</dd>
        {interpreter.credentials && (
          <>
            <dt>Credentials</dt>
            <dd>{interpreter.credentials}</dd>
          </>
        )}
      </dl>
      <Form
        submitLabel={interpreter.active ? `Deactivate ${interpreter.name}` : `Reactivate ${interpreter.name}`}
        tone={interpreter.active ? 'danger' : 'secondary'}
        onSubmit={() => toggle.run({ id, input: { active: !interpreter.active } })}
        {...toggle.form}
      />
      <details>
        <summary>Edit {interpreter.name}</summary>
        <InterpreterForm
          action={update}
          variables={(input) => ({ id, input })}
          submitLabel="Save interpreter"
          label={`Record of ${interpreter.name}`}
          record={interpreter}
        />
      </details>
    </li>
  );
}
