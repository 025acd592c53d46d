import type { ClientRegistration, UserRecord } from '../model/schemas.ts';

/** The emulator's HTML pages. Every interpolated value is escaped. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#222}
fieldset{border:1px solid #ccc;border-radius:6px;margin:1rem 0;padding:1rem}label{display:block;margin:.5rem 0}
input{width:100%;padding:.4rem;box-sizing:border-box}button{padding:.4rem 1rem;margin:.2rem 0}
.preset button{width:100%;text-align:left}.error{color:#a00}small{color:#666}`;

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

export function loginPage(opts: {
  client: ClientRegistration;
  /** The query string the page was requested with, so the form posts it back unchanged. */
  search: string;
  users: readonly UserRecord[];
  presetUsers: boolean;
  error?: string;
}): string {
  const action = `/login${opts.search}`;
  const presets = opts.presetUsers
    ? `<fieldset class="preset"><legend>Test users</legend>${opts.users
        .map(
          (u) => `<form method="post" action="${escapeHtml(action)}" data-user="${escapeHtml(u.username)}">
<input type="hidden" name="username" value="${escapeHtml(u.username)}"><input type="hidden" name="password" value="${escapeHtml(u.password)}">
<button type="submit" name="preset" value="${escapeHtml(u.username)}">${escapeHtml(u.firstName)} ${escapeHtml(u.lastName)} <small>(${escapeHtml(u.username)}, ${escapeHtml(u.role)})</small></button></form>`,
        )
        .join('')}</fieldset>`
    : '';
  return layout(
    'Sign in',
    `<h1>Sign in</h1><p>to <strong>${escapeHtml(opts.client.appId)}</strong> <small>(policyfuzz SSO emulator)</small></p>
${opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : ''}
${presets}
<fieldset><legend>Username and password</legend><form id="login" method="post" action="${escapeHtml(action)}">
<label>Username <input name="username" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button></form></fieldset>`,
  );
}

export function errorPage(title: string, message: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`);
}
