import type { Request, Response } from 'express';
import type { Services } from '../../services.ts';
import type { Route } from '../../../rest-adapter/types.ts';
import type { Session } from './service.ts';
import { clearSessionCookie, setSessionCookie } from './session-cookie.ts';

const LOGIN = `mutation ($username: String!, $password: String!) {
  login(username: $username, password: $password) { accessToken tokenType expiresAt }
}`;
const LOGOUT = 'mutation { logout }';
const CHANGE_PASSWORD = `mutation ($input: ChangePasswordInput!) {
  changePassword(input: $input) { accessToken tokenType expiresAt }
}`;

function sendSession(req: Request, res: Response, services: Services, session: Session, extra: Record<string, unknown> = {}) {
  setSessionCookie(req, res, services, session);
  res.json({ access_token: session.accessToken, token_type: session.tokenType, ...extra });
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

export const authRoutes: Route[] = [
  {
    method: 'POST',
    path: '/auth/login',
    tag: 'Auth',
    summary: 'Sign in with form-encoded username and password; returns a bearer token and sets the svc_token cookie',
    roles: 'public',
    requestType: 'application/x-www-form-urlencoded',
    documents: [LOGIN],
    errors: ['INVALID_CREDENTIALS', 'TOO_MANY_ATTEMPTS'],
    restNames: false,
    async handle(req, res, { execute, context }) {
      const form = (req.body ?? {}) as Record<string, unknown>;
      const session = (await execute(LOGIN, { username: text(form.username), password: text(form.password) })) as Session;
      sendSession(req, res, context.services, session);
    },
  },
  {
    method: 'POST',
    path: '/auth/logout',
    tag: 'Auth',
    summary: 'Revoke the current session token and clear the cookie',
    roles: 'signed-in',
    documents: [LOGOUT],
    async handle(req, res, { execute, context }) {
      await execute(LOGOUT, {});
      clearSessionCookie(req, res, context.services);
      res.json({ detail: 'Logged out' });
    },
  },
  {
    method: 'GET',
    path: '/auth/me',
    tag: 'Auth',
    summary: 'The signed-in user',
    roles: 'signed-in',
    document: 'query { me { id username email role isActive mustChangePassword } }',
  },
  {
    method: 'POST',
    path: '/auth/change-password',
    tag: 'Auth',
    summary: 'Change the own password (body current_password, new_password); returns a new token and cookie',
    roles: 'signed-in',
    requestType: 'application/json',
    documents: [CHANGE_PASSWORD],
    restNames: false,
    async handle(req, res, { execute, context }) {
      const form = (req.body ?? {}) as Record<string, unknown>;
      const input = { currentPassword: text(form.current_password), newPassword: text(form.new_password) };
      const session = (await execute(CHANGE_PASSWORD, { input })) as Session;
      sendSession(req, res, context.services, session, { detail: 'Password changed' });
    },
  },
];
