import { EnvironmentError } from '../../engine/errors.ts';
import { parseTokenResponse } from '../client/client.ts';
import { codesIn, goodTokenRequest, type PropertyContext } from './kit.ts';

/**
 * One ordinary login and exchange before any property runs. A driver that cannot log in (other
 * field names, a form it cannot read, wrong test credentials) would otherwise show up as a dozen
 * security failures; instead the run stops with exit 2 and says what the page showed.
 */
export async function preflightLogin(ctx: PropertyContext): Promise<void> {
  const client = ctx.config.clients[0]!;
  const user = ctx.config.users[0]!;
  const seen = await ctx.driver.login(ctx.newBrowser(), [['app', client.appId]], { username: user.username, password: user.password });
  const codes = seen.kind === 'redirect' ? codesIn(seen.location, client.redirectUrl) : [];
  if (seen.kind !== 'redirect' || codes.length !== 1) {
    const showed =
      seen.kind === 'redirect'
        ? `a ${seen.status} redirect to ${seen.location}`
        : `a ${seen.status} page${seen.text ? `: "${seen.text}"` : ''}`;
    throw new EnvironmentError(
      `preflight login failed: logging ${user.username} in to ${client.appId} (${ctx.driver.name} driver) did not redirect to ${client.redirectUrl} with a code; the service answered ${showed}. ` +
        'Check the users and clients in the config, and loginPage.usernameField/passwordField (form driver) or loginPage.username/password/submit selectors (--browser).',
    );
  }
  const { reply } = await ctx.client.exchange(goodTokenRequest(client, codes[0]!));
  if (parseTokenResponse(reply)?.ok !== true) {
    throw new EnvironmentError(
      `preflight exchange failed: the code from ${client.appId}'s login was refused (HTTP ${reply.status}: ${reply.text.slice(0, 200)}). Check clientId, clientSecret and redirectUrl of ${client.appId} in the config, and --api.`,
    );
  }
}
