// @ts-check
// The dashboard's calls to the /v1 API, with the session's token (session.js). A 401 calls the handler app.js sets
// (it logs this tab out); any other failure throws an ApiError with the API's own message.

import { token } from './session.js';

export class ApiError extends Error {
  /** @param {number} status @param {string} message */
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** @type {(message: string) => void} */
let unauthorized = () => {};

/** What a 401 does (app.js: log this tab out with the message). @param {(message: string) => void} handler */
export function onUnauthorized(handler) {
  unauthorized = handler;
}

/**
 * Calls the API with the session's token.
 * @param {string} path
 * @param {RequestInit} [init]
 * @returns {Promise<Response>}
 */
export async function call(path, init = {}) {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${token() ?? ''}`);
  if (typeof init.body === 'string') headers.set('content-type', 'application/json');
  const res = await fetch(path, { ...init, headers });
  if (res.status === 401) {
    unauthorized('Your token was not accepted. Log in again.');
    throw new ApiError(401, 'unauthorized');
  }
  if (!res.ok) {
    const body = await res.json().catch(() => null);
    throw new ApiError(res.status, body?.error?.message ?? `${res.status} ${res.statusText}`);
  }
  return res;
}

/** @template T @param {string} path @param {RequestInit} [init] @returns {Promise<T>} */
export async function json(path, init) {
  return /** @type {Promise<T>} */ ((await call(path, init)).json());
}

/** An error's message, for people. @param {unknown} error */
export const messageOf = (error) => (error instanceof Error ? error.message : String(error));
