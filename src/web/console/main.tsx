import { startWebApp } from '../shared/web-app';
import { Console } from './console';

startWebApp({
  app: 'console',
  title: 'Staff console',
  refuse: (signedIn) =>
    signedIn.staff ? undefined : 'This console is for the operator’s staff. Clients sign in to the client portal.',
  render: (signOut) => <Console signOut={signOut} />,
});
