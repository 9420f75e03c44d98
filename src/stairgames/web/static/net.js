// The page's requests to the server, one copy for every module: `api` asks and gives the
// reply's JSON, or throws an ApiError carrying the server's error; `errorText` says an
// error in the page's language.

import { t } from "./i18n.js";

/**
 * The server's error, as its JSON replies carry it (`{"error": {...}}`): a stable
 * machine `code` to match, a message id with its arguments to translate, or a text
 * already in the asked language (a card file's errors).
 *
 * @typedef {{code?: string, id?: string, message?: string, args?: Record<string, unknown>,
 *   text?: string}} ServerError
 */

/**
 * @typedef {object} ApiOptions
 * @property {string} [method] GET unless given (POST where `json` is given).
 * @property {unknown} [json] sent as the JSON body (with its content type).
 * @property {BodyInit} [body] sent as it is (give its content type in `headers`).
 * @property {Record<string, string>} [headers]
 */

/** A request that failed: `status` is the HTTP status (0: the server was not reached). */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {ServerError | null} error
   */
  constructor(status, error) {
    super(error?.message ?? error?.id ?? (status ? `HTTP ${status}` : "unreachable"));
    this.name = "ApiError";
    this.status = status;
    this.error = error;
  }

  /** The server's machine code of this refusal (`""` when it gave none). */
  get code() {
    return this.error?.code ?? "";
  }

  /** Whether the server could not be reached at all (no answer, or no JSON). */
  get unreachable() {
    return this.status === 0;
  }
}

/**
 * Ask the server: the reply's JSON, or an ApiError (the server's `error` when it said
 * one; status 0 when it did not answer).
 *
 * @param {string} path
 * @param {ApiOptions} [options]
 * @returns {Promise<any>}
 */
export async function api(path, options = {}) {
  const { method, json, body, headers = {} } = options;
  /** @type {RequestInit} */
  const init = { method: method ?? (json === undefined ? "GET" : "POST"), headers };
  if (json !== undefined) {
    init.headers = { "content-type": "application/json", ...headers };
    init.body = JSON.stringify(json);
  } else if (body !== undefined) init.body = body;
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, null);
  }
  const data = await response.json().catch(() => undefined);
  if (!response.ok) throw new ApiError(response.status, errorOf(data));
  if (data === undefined) throw new ApiError(0, null); // not the server's JSON
  return data;
}

/**
 * The `error` of a reply's body, where it has one.
 *
 * @param {unknown} data
 * @returns {ServerError | null}
 */
function errorOf(data) {
  if (data === null || typeof data !== "object" || !("error" in data)) return null;
  const error = data.error;
  return error !== null && typeof error === "object" ? /** @type {ServerError} */ (error) : null;
}

/**
 * An error as the page says it: the server's text, else its message id in the page's
 * language with its arguments, else "Something went wrong.".
 *
 * @param {ServerError | null | undefined} error
 * @returns {string}
 */
export function errorText(error) {
  if (!error) return t("Something went wrong.");
  if (error.text) return error.text;
  const id = error.id || error.message;
  if (!id) return t("Something went wrong.");
  return t(id, error.args || {}) || error.message || "";
}

/**
 * What the page says of a failed request: the server's error, or that it cannot be
 * reached.
 *
 * @param {unknown} failure
 * @returns {string}
 */
export function failureText(failure) {
  if (failure instanceof ApiError && failure.unreachable) {
    return t("The server cannot be reached.");
  }
  return errorText(failure instanceof ApiError ? failure.error : null);
}
