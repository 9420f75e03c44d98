// A move made while the match's socket is closed (a server restarting, an outage): kept,
// not dropped, and sent once the socket is back, if the game is still where it was
// when the move was made (the event number: the server also refuses a move made on an
// older event as stale, so a move is never applied twice); otherwise it is dropped and
// the page says so.

/** @typedef {{type: string, [key: string]: unknown}} Request */

/**
 * @typedef {object} Settled
 * @property {Request | null} send the kept request to send now
 * @property {Request | null} dropped the kept request that no longer fits the game
 */

/** At most one request kept: the last one made while disconnected. */
export class PendingMove {
  constructor() {
    /** @type {Request | null} */
    this.request = null;
    /** @type {number | null} the event it was made at */
    this.event = null;
  }

  /**
   * Keep `request`, made at `event` (replacing one kept before: the later choice counts).
   *
   * @param {Request} request
   * @param {number} event
   */
  keep(request, event) {
    this.request = request;
    this.event = event;
  }

  /**
   * The socket is back and sent the match's state: what to do with the kept request.
   *
   * @param {{event: number, result: unknown}} view
   * @returns {Settled}
   */
  settle(view) {
    const request = this.request;
    const event = this.event;
    this.request = null;
    this.event = null;
    if (request === null) return { send: null, dropped: null };
    if (view.event === event && view.result === null) return { send: request, dropped: null };
    return { send: null, dropped: request };
  }
}
