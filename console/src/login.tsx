import { useState } from 'preact/hooks';
import { LOGGED_OUT, logIn, type Me } from './api';
import { fieldId, Notice } from './ui';

export function Login(props: { reason: string; onLogin: (me: Me) => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [ids] = useState(() => ({ user: fieldId('username'), pass: fieldId('password') }));

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError('');
    const answer = await logIn(username, password);
    setBusy(false);
    if (typeof answer === 'string') setError(answer);
    else props.onLogin(answer);
  }

  return (
    <main class="login">
      <h1>Staff console</h1>
      <p>Log in with your ordering-system account. Staff and administrators only.</p>
      {error ? (
        <Notice text={error} />
      ) : (
        <Notice text={props.reason} kind={props.reason === LOGGED_OUT ? 'ok' : 'error'} />
      )}
      <form onSubmit={submit}>
        <label for={ids.user}>Username</label>
        <input
          id={ids.user}
          name="username"
          autocomplete="username"
          required
          value={username}
          onInput={(e) => setUsername(e.currentTarget.value)}
        />
        <label for={ids.pass}>Password</label>
        <input
          id={ids.pass}
          name="password"
          type="password"
          autocomplete="current-password"
          required
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Logging in…' : 'Log in'}
        </button>
      </form>
    </main>
  );
}
