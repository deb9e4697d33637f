// Compiled (never run) by test/types.test.js when `tsc` is available: the declarations in
// index.d.ts must accept this code, and reject what is marked @ts-expect-error.
import {
  AuthSidecar,
  AuthSidecarError,
  CancelledError,
  ERROR_KINDS,
  NotLoggedInError,
  RateLimitedError,
  InvalidCredentialsError,
  SidecarExitedError,
  ValidationFailedError,
  errorFromResponse,
  findBinary,
  type SessionState,
} from '../../index.js';

export async function usage(): Promise<unknown[]> {
  const binary: string = findBinary({ env: { AUTH_SIDECAR_BIN: '/usr/bin/auth-sidecar' } });
  const sidecar = await AuthSidecar.start({
    binary,
    stateDir: '/tmp/state',
    config: { profiles: { default: { provider: 'local' } } },
    framing: 'lsp',
    logLevel: 'info',
    profile: 'default',
    locale: 'zh-Hans',
    test: { clock: new Date(0), kdfIterations: 1000 },
  });
  sidecar.on('sessionChanged', ({ profile, state }) => {
    const s: SessionState = state;
    return [profile, s];
  });
  sidecar.on('exit', ({ code, signal }) => [code, signal]);
  sidecar.on('stderr', (line) => line.toUpperCase());
  sidecar.on('notification', ({ method, params }) => [method, params]);

  const v = await sidecar.validate({ account: 'bob', password: 'pw', purpose: 'login' });
  const valid: boolean = v.valid && v.fields.account?.kind === 'username';
  const controller = new AbortController();
  const { user, session } = await sidecar.login({ account: 'bob', password: 'pw' }, { signal: controller.signal });
  await sidecar.login({ phone: '13542138562', password: 'pw', context: { deviceId: 'd-1' }, profile: 'php' });
  const text: string = `${user.id} ${user.username} ${user.email ?? ''} ${session.accessToken} ${session.expiresAt}`;
  // A tokenless or cookie session has no token: the type says it may be absent.
  const bearer: string | undefined = session.tokenType === 'none' ? session.accessToken : undefined;
  sidecar.on('loginPrompt', (prompt) => (prompt.flow === 'device' ? prompt.userCode : prompt.authorizationUrl));
  const device = await sidecar.login(
    { flow: 'device', profile: 'work' },
    { onPrompt: (prompt) => (prompt.flow === 'device' ? [prompt.verificationUri, prompt.expiresAt] : prompt.redirectUri) },
  );
  try {
    await sidecar.getUser({ refresh: true });
  } catch (error) {
    if (error instanceof NotLoggedInError) {
      const account: string | undefined = error.lastAccount;
      return [account];
    } else if (error instanceof InvalidCredentialsError) {
      const unknown: boolean = error.unknownAccount;
      const reason: string | undefined = error.reason;
      return [unknown, reason];
    } else if (error instanceof RateLimitedError) {
      const wait: number | undefined = error.retryAfter;
      return [wait, error.reason];
    } else if (error instanceof ValidationFailedError) {
      return [error.fields.username?.errors[0]?.code];
    } else if (error instanceof SidecarExitedError) {
      const exit: number | null = error.exitCode;
      return [exit, error.signal, error.stderr.join('\n')];
    } else if (error instanceof CancelledError || error instanceof AuthSidecarError) {
      const kind: string = error.kind;
      const code: number | null = error.code;
      return [kind, code, error.retryable, error.data.retryable];
    }
  }
  const refreshed = await sidecar.refreshToken({ force: true });
  const out = await sidecar.logout();
  const loggedOut: true = out.loggedOut;
  const status = await sidecar.status();
  const first: boolean = status.profiles[0].loggedIn;
  const doc = await sidecar.discover();
  const names: string[] = doc.methods.map((m) => m.name);
  const now: string = (await sidecar.advanceClock(60)).now;
  const generic = await sidecar.call<{ now: string }>('test.advanceClock', { seconds: 1 });
  sidecar.notify('$/cancelRequest', { id: 1 });
  const code: number = ERROR_KINDS.not_logged_in.code;
  const mapped: AuthSidecarError = errorFromResponse({ code: -32003, message: 'Not logged in.' }, 'getUser');
  await sidecar[Symbol.asyncDispose]();
  const exit = await sidecar.close();
  const exitCode: number | null = exit.code;

  // @ts-expect-error a password is required
  await sidecar.login({ account: 'bob' });
  // @ts-expect-error an interactive login takes no password
  await sidecar.login({ flow: 'authorizationCode', password: 'pw' });
  // @ts-expect-error framing is ndjson or lsp
  new AuthSidecar({ framing: 'xml' });
  // @ts-expect-error context values are strings
  await sidecar.login({ account: 'bob', password: 'pw', context: { build: 7 } });
  // @ts-expect-error refresh is a boolean
  await sidecar.getUser({ refresh: 'yes' });

  return [valid, text, device, refreshed, loggedOut, first, names, now, generic, code, mapped, exitCode];
}
