import { useState } from 'preact/hooks';
import { type EndReason, logIn, type Me } from './api';
import { t } from './i18n';
import { LanguageSwitch } from './language';
import { fieldId, Notice } from './ui';

export function Login(props: { reason: EndReason; onLogin: (me: Me) => void }) {
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
      <div class="login-head">
        <h1>{t('app.title')}</h1>
        <LanguageSwitch />
      </div>
      <p>{t('login.intro')}</p>
      {error ? (
        <Notice text={error} />
      ) : (
        <Notice
          text={props.reason ? t(props.reason) : ''}
          kind={props.reason === 'session.loggedOut' ? 'ok' : 'error'}
        />
      )}
      <form onSubmit={submit}>
        <label for={ids.user}>{t('login.username')}</label>
        <input
          id={ids.user}
          name="username"
          autocomplete="username"
          required
          value={username}
          onInput={(e) => setUsername(e.currentTarget.value)}
        />
        <label for={ids.pass}>{t('login.password')}</label>
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
          {busy ? t('login.busy') : t('login.submit')}
        </button>
      </form>
    </main>
  );
}
