/**
 * The role, JWT claims and headers PostgREST sets for a caller, shaped as Supabase issues them.
 * A Supabase anon key is itself a JWT (role anon), so every caller carries one unless
 * `withoutToken` asks for a bare request; PostgREST injects the role into the claims either way.
 * A signed-in user's token carries what Supabase Auth puts in an access token (aud, exp, email,
 * phone, app_metadata, user_metadata, aal, session_id, is_anonymous); supabase-js sends the anon
 * key as `apikey` and the user's token as `authorization`.
 */
import { apiRoleOf, type Caller } from '../model/caller.ts';
import type { ProjectRole } from '../model/table-model.ts';
import type { ApiRequest } from '../model/request.ts';
import { maxAffectedOf } from './statement.ts';

export type ApiRole = 'anon' | 'authenticated' | 'service_role';
/** The role PostgREST switches to: an API role, or a project role a user's token names (Caller.role). */
export type RequestRole = ApiRole | ProjectRole;

export interface Credentials {
  role: RequestRole;
  claims: Record<string, unknown>;
  /** The headers PostgREST exposes as request.headers (lower-case names, as PostgREST gives them). */
  headers: Record<string, string>;
}

/** Fixed times so the same seed sends the same claims; exp lies far ahead (PostgREST refuses an expired token). */
const ISSUED_AT = 1_763_856_000;
const EXPIRES_AT = 4_102_444_800;
const PROJECT_REF = 'policyfuzz';

const apiKeyClaims = (role: 'anon' | 'service_role') => ({ iss: 'supabase', ref: PROJECT_REF, role, iat: ISSUED_AT, exp: EXPIRES_AT });

/** A token as supabase-js forwards it. Nothing in the database verifies the signature; PostgREST did. */
function jwt(claims: Record<string, unknown>): string {
  const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.policyfuzz-unsigned`;
}
const ANON_KEY = jwt(apiKeyClaims('anon'));
const SERVICE_KEY = jwt(apiKeyClaims('service_role'));

/** Supabase Auth's session id, derived from the user id so that it is the same on every run. */
function sessionIdOf(userId: string): string {
  return `5e5510d0${userId.slice(8)}`;
}

export function userClaims(caller: Extract<Caller, { kind: 'user' }>): Record<string, unknown> {
  const anonymous = caller.isAnonymous === true;
  const provider = anonymous ? 'anonymous' : 'email';
  return {
    iss: `https://${PROJECT_REF}.supabase.co/auth/v1`,
    sub: caller.id,
    aud: 'authenticated',
    exp: EXPIRES_AT,
    iat: ISSUED_AT,
    email: caller.email ?? '',
    phone: caller.phone ?? '',
    app_metadata: { provider, providers: [provider], ...caller.appMetadata },
    // raw_user_meta_data as the user set it (supabase/auth internal/tokens/service.go 710: the user's UserMetaData).
    user_metadata: { ...caller.userMetadata },
    // A project role the pack gives the caller (`app_admin`), as a custom access token hook would set it: PostgREST switches to it.
    role: apiRoleOf(caller),
    aal: caller.aal ?? 'aal1',
    // Supabase Auth lists the methods most recent first: a second factor (aal2) after the first.
    amr: [...(caller.aal === 'aal2' ? [{ method: 'totp', timestamp: ISSUED_AT }] : []), { method: anonymous ? 'anonymous' : 'password', timestamp: ISSUED_AT }],
    session_id: sessionIdOf(caller.id),
    is_anonymous: anonymous,
    // What the project's custom access-token hook adds, as Supabase Auth issues it.
    ...caller.hookClaims,
  };
}

type Tokens = {
  role: RequestRole;
  claims: Record<string, unknown>;
  apikey?: string;
  bearer?: string;
  /** The claims and each header set as JSON text, made once per token (credentialTexts). */
  texts?: { claims: string; headers: Map<string, string> };
};

const ANON: Tokens = { role: 'anon', claims: apiKeyClaims('anon'), apikey: ANON_KEY, bearer: ANON_KEY };
const ANON_WITHOUT_TOKEN: Tokens = { role: 'anon', claims: { role: 'anon' } };
const SERVICE: Tokens = { role: 'service_role', claims: apiKeyClaims('service_role'), apikey: SERVICE_KEY, bearer: SERVICE_KEY };

/**
 * A user's token, made once per caller object (a case's steps share their caller) and, across
 * cases, once per user as the token sees it (each case draws its callers anew, mostly the same
 * few people): claims and JWT text.
 */
const userTokens = new WeakMap<Caller, Tokens>();
const userTokensByClaims = new Map<string, Tokens>();
/** Bounds the tokens kept across cases (a run draws few distinct users; a long one may draw more). */
const MAX_KEPT_TOKENS = 4096;

/** Everything userClaims reads of a user caller: equal keys give equal claims. */
function userKey(caller: Extract<Caller, { kind: 'user' }>): string {
  return JSON.stringify([caller.id, caller.email ?? '', caller.phone ?? '', caller.isAnonymous === true, caller.aal ?? 'aal1', caller.appMetadata ?? null, caller.hookClaims ?? null, caller.userMetadata ?? null, caller.role ?? null]);
}

function tokens(caller: Caller, withoutToken: boolean): Tokens {
  switch (caller.kind) {
    case 'anon':
      return withoutToken ? ANON_WITHOUT_TOKEN : ANON;
    case 'service':
      return SERVICE;
    case 'user': {
      let made = userTokens.get(caller);
      if (!made) {
        const key = userKey(caller);
        made = userTokensByClaims.get(key);
        if (!made) {
          const claims = userClaims(caller);
          made = { role: apiRoleOf(caller), claims, apikey: ANON_KEY, bearer: jwt(claims) };
          if (userTokensByClaims.size >= MAX_KEPT_TOKENS) userTokensByClaims.clear();
          userTokensByClaims.set(key, made);
        }
        userTokens.set(caller, made);
      }
      return made;
    }
  }
}

/**
 * The headers a request adds to the token's, as postgrest-js 1.19 (supabase-js 2.49) writes them,
 * in the order sent: a GET (a read, a GET rpc) carries `accept-profile` for a chosen schema and no
 * body type; any other method `content-type: application/json` and `content-profile`
 * (PostgrestBuilder.ts then). A write's `prefer` is what its builder put together
 * (PostgrestQueryBuilder.ts insert/upsert/update/delete, `.select()` adding return=representation):
 * `resolution=…` for an upsert, `return=representation` for a write read back, and an empty
 * header for a plain write (return=minimal is PostgREST's default, never spelled out).
 * `throughApi` false: a table sent as SQL, whose schema no profile header names.
 */
function requestOwnHeaders(request: ApiRequest | undefined, throughApi: boolean): [string, string][] {
  if (!request) return [];
  const headers: [string, string][] = [];
  const get = isGet(request);
  if (!get) headers.push(['content-type', 'application/json']);
  if ('returning' in request) headers.push(['prefer', preferOf(request)]);
  if (request.single) headers.push(['accept', 'application/vnd.pgrst.object+json']);
  if (request.schema && throughApi) headers.push([get ? 'accept-profile' : 'content-profile', request.schema]);
  return headers;
}

/** GET: a read, or an rpc called with `{ get: true }`. */
const isGet = (request: ApiRequest): boolean => request.kind === 'select' || (request.kind === 'rpc' && request.get === true);

/** A write's Prefer, its parts joined by commas as postgrest-js joins them ('' for a plain write). */
function preferOf(request: Extract<ApiRequest, { returning: unknown }>): string {
  const resolution = request.kind === 'insert' && request.upsert ? [`resolution=${request.upsert.resolution}`] : [];
  // postgrest-js 1.19.4 PostgrestQueryBuilder.ts 159-161, 262-264: `defaultToNull: false` after the resolution, before `.select()`'s return=.
  const missing = request.kind === 'insert' && request.missing ? [`missing=${request.missing}`] : [];
  const returning = request.returning === 'minimal' ? [] : [`return=${request.returning}`];
  const maxAffected = maxAffectedOf(request);
  const strict = maxAffected === undefined ? [] : ['handling=strict', `max-affected=${maxAffected}`];
  return [...resolution, ...missing, ...returning, ...strict].join(',');
}

/** What decides requestOwnHeaders, as one string (no header list made per request): equal keys, equal headers. */
function ownHeadersKey(request: ApiRequest | undefined, throughApi: boolean): string {
  if (!request) return '';
  // What preferOf reads (a write's Prefer may be empty, which is not no Prefer at all: a POST rpc sends none).
  const prefer = 'returning' in request ? `${request.returning}/${request.kind === 'insert' ? `${request.upsert?.resolution ?? ''}/${request.missing ?? ''}` : ''}/${maxAffectedOf(request) ?? ''}` : '-';
  const single = request.single ? 'single' : '';
  const schema = request.schema && throughApi ? JSON.stringify(request.schema) : '';
  return `${isGet(request) ? 'get' : 'body'} ${prefer} ${single} ${schema}`;
}

/** What supabase-js sends with this request: the keys, the client's own headers (`global.headers`), then the request's. */
function requestHeaders(request: ApiRequest | undefined, apikey: string | undefined, bearer: string | undefined, throughApi: boolean, clientHeaders: Caller['headers']): Record<string, string> {
  const headers: Record<string, string> = {};
  if (apikey) headers.apikey = apikey;
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  headers['x-client-info'] = 'supabase-js-node/2.49.4';
  for (const [name, value] of Object.entries(clientHeaders ?? {})) headers[name.toLowerCase()] = value;
  for (const [name, value] of requestOwnHeaders(request, throughApi)) headers[name] = value;
  return headers;
}

export function credentialsFor(caller: Caller, options: { withoutToken?: boolean } = {}, request?: ApiRequest, throughApi = true): Credentials {
  const t = tokens(caller, options.withoutToken === true);
  return { role: t.role, claims: t.claims, headers: requestHeaders(request, t.apikey, t.bearer, throughApi, caller.headers) };
}

/** The role PostgREST switches to for this caller. */
export function apiRole(caller: Caller, options: { withoutToken?: boolean } = {}): RequestRole {
  return tokens(caller, options.withoutToken === true).role;
}

/**
 * The role, and the claims and headers as the JSON text PostgREST sets (what credentialsFor gives,
 * serialized): each text is made once per token and header set, not once per request.
 */
export function credentialTexts(caller: Caller, options: { withoutToken?: boolean } = {}, request?: ApiRequest, throughApi = true): { role: RequestRole; claims: string; headers: string } {
  const t = tokens(caller, options.withoutToken === true);
  const texts = (t.texts ??= { claims: JSON.stringify(t.claims), headers: new Map() });
  // Tokens are shared by callers differing only in their own headers (every anon caller): those are part of the key.
  const key = caller.headers ? `${ownHeadersKey(request, throughApi)} ${JSON.stringify(caller.headers)}` : ownHeadersKey(request, throughApi);
  let headers = texts.headers.get(key);
  if (headers === undefined) {
    headers = JSON.stringify(requestHeaders(request, t.apikey, t.bearer, throughApi, caller.headers));
    // A schema name is the only open-ended part of the key: bounded all the same.
    if (texts.headers.size >= 64) texts.headers.clear();
    texts.headers.set(key, headers);
  }
  return { role: t.role, claims: texts.claims, headers };
}
