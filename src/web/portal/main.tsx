import { startWebApp } from '../shared/web-app';
import { Portal } from './portal';
import './portal.css';

startWebApp({
  app: 'portal',
  title: 'Client portal',
  refuse: (signedIn) =>
    signedIn.member ? undefined : 'This portal is for a firm’s people. Staff sign in to the staff console.',
  render: (signOut) => <Portal signOut={signOut} />,
});
