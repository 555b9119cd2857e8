import type { MailMessage } from '../mail/mailer.js';
import { MAX_PASSWORD, MIN_PASSWORD } from './schemas.js';

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;' +
  'line-height:1.5;color:#1a1a1a}label{display:block;margin-top:1rem;font-weight:600}' +
  'input{display:block;width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem}' +
  'button{margin-top:1.5rem;padding:.6rem 1.2rem;font-size:1rem}' +
  '.error{color:#a40000;border-left:4px solid #a40000;padding-left:.75rem}';

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`;
}

/** The form: posts to the page's own URL (no action attribute), works without JavaScript. */
export function formPage(error?: string): string {
  const alert = error
    ? `<p class="error" role="alert" id="form-error">${escapeHtml(error)}</p>\n`
    : '';
  const described = error ? ' aria-describedby="form-error"' : '';
  const limits = `minlength="${MIN_PASSWORD}" maxlength="${MAX_PASSWORD}" required`;
  return page(
    'Choose a new password',
    `${alert}<form method="post">
<label for="password">New password</label>
<input type="password" id="password" name="password" autocomplete="new-password" ${limits}${described}>
<p id="password-hint">At least ${MIN_PASSWORD} and at most ${MAX_PASSWORD} characters, and not a commonly used password.</p>
<label for="repeat_password">Repeat the new password</label>
<input type="password" id="repeat_password" name="repeat_password" autocomplete="new-password" ${limits}>
<button type="submit">Set password</button>
</form>`,
  );
}

export function donePage(): string {
  return page('Password set', '<p>Your new password is set. You can now log in with it.</p>');
}

export function expiredPage(): string {
  return page(
    'Link expired or already used',
    '<p>This password-restore link has expired or has already been used. ' +
      'Request a new one from the app.</p>',
  );
}

/** Any other failure (rate limit, upstream down): a message, never details. */
export function errorPage(title: string, message: string): string {
  return page(title, `<p>${escapeHtml(message)}</p>`);
}

export function codeMail(to: string, code: string, ttlSeconds: number): MailMessage {
  const valid = validity(ttlSeconds);
  return {
    to,
    subject: 'Your password restore code',
    text:
      `Your code to set a new password: ${code}\n\n` +
      `It is valid for ${valid} and can be used once. ` +
      'If you did not ask for it, ignore this e-mail: your password stays as it is.\n',
    html: mailHtml(
      `<p>Your code to set a new password:</p><p style="font-size:1.5rem;letter-spacing:.2em"><strong>${escapeHtml(code)}</strong></p>` +
        `<p>It is valid for ${escapeHtml(valid)} and can be used once. If you did not ask for it, ignore this e-mail: your password stays as it is.</p>`,
    ),
  };
}

export function linkMail(to: string, link: string, ttlSeconds: number): MailMessage {
  const valid = validity(ttlSeconds);
  return {
    to,
    subject: 'Set a new password',
    text:
      `Open this link to set a new password:\n${link}\n\n` +
      `It is valid for ${valid} and can be used once. ` +
      'If you did not ask for it, ignore this e-mail: your password stays as it is.\n',
    html: mailHtml(
      `<p><a href="${escapeHtml(link)}">Set a new password</a></p>` +
        `<p>Or open this address: ${escapeHtml(link)}</p>` +
        `<p>It is valid for ${escapeHtml(valid)} and can be used once. If you did not ask for it, ignore this e-mail: your password stays as it is.</p>`,
    ),
  };
}

function mailHtml(body: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Password restore</title></head><body>${body}</body></html>`;
}

function validity(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? '1 hour' : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? '1 minute' : `${seconds / 60} minutes`;
  return `${seconds} seconds`;
}
