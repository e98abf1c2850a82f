import { expect, type Page } from '@playwright/test';
import type { PreSignIn, Verification } from '#common/contract/account.ts';
import { SESSION_STORAGE_KEY } from '#common/limits.ts';
import type { ApiCall } from './api.ts';
import type { AppServer } from './app-server.ts';
import { solveHumanCheck } from './human-check.ts';

/** Who signs in: an account's username and password, and the address its codes are mailed to. */
export interface Person {
  username: string;
  password: string;
  email: string;
}

/** A newcomer for signUpThroughApi: a Person with the names the sign-up form asks for. */
export interface Newcomer extends Person {
  firstName: string;
  lastName: string;
}

/** The first sign-in step through the API (password and a solved human check): the pending sign-in. */
export async function passwordStep(call: ApiCall, server: AppServer, person: Person): Promise<PreSignIn> {
  const answer = await call<PreSignIn>('POST', '/api/account/login', {
    body: {
      username: person.username,
      password: person.password,
      token: await solveHumanCheck(server.origin),
    },
  });
  expect(answer.status, answer.message ?? '').toBe(200);
  return answer.data;
}

/** The second step: the pending sign-in's preferred method answered with the code mailed to the person. */
async function verifyWithMailedCode(
  call: ApiCall,
  server: AppServer,
  pending: PreSignIn,
  email: string,
): Promise<Verification> {
  const verified = await call<Verification>('POST', '/api/account/login/verify', {
    body: { key: pending.key, otp: await server.mail.nextCode(email), selected2fa: pending.preferred2fa },
  });
  expect(verified.status, verified.message ?? '').toBe(200);
  return verified.data;
}

/** Signs in through the API as the login page does (password, human check, the emailed code): the verification. */
export async function signInThroughApi(
  call: ApiCall,
  server: AppServer,
  person: Person,
): Promise<Verification> {
  return verifyWithMailedCode(call, server, await passwordStep(call, server, person), person.email);
}

/** Signs a newcomer up through the API and confirms the address with the emailed code: the verification. */
export async function signUpThroughApi(
  call: ApiCall,
  server: AppServer,
  person: Newcomer,
): Promise<Verification> {
  const answer = await call<string>('POST', '/api/account/signup', {
    body: {
      user: {
        username: person.username,
        user_Details: [{ email: person.email, firstName: person.firstName, lastName: person.lastName }],
      },
      password: person.password,
      token: await solveHumanCheck(server.origin),
    },
  });
  expect(answer.status, answer.message ?? '').toBe(200);
  const pending = JSON.parse(Buffer.from(answer.data, 'base64').toString('utf8')) as PreSignIn;
  return verifyWithMailedCode(call, server, pending, person.email);
}

/** Stores the verification where the web app keeps it (base64 of the UTF-8 JSON under UTOKEN, as
 * web/session/storage.ts does), without navigating: the app picks it up when a page of it next starts. */
export async function storeSession(page: Page, verification: Verification): Promise<void> {
  const value = Buffer.from(JSON.stringify(verification), 'utf8').toString('base64');
  await page.evaluate(({ key, value }) => localStorage.setItem(key, value), {
    key: SESSION_STORAGE_KEY,
    value,
  });
}

/** The bearer token of the session the page has stored under UTOKEN (throws when there is none). */
export async function storedToken(page: Page): Promise<string> {
  const stored = await page.evaluate((key) => localStorage.getItem(key), SESSION_STORAGE_KEY);
  if (!stored) throw new Error(`no session is stored under ${SESSION_STORAGE_KEY}`);
  return (JSON.parse(Buffer.from(stored, 'base64').toString('utf8')) as Verification).token;
}

/** Signs out through the app's own route (the server ends the session; the page goes home). */
export async function signOut(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/account/logout`);
  await expect(page).toHaveURL(/\/home$/);
}
