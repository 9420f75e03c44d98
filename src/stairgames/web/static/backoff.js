// How long a page waits before it opens a closed socket again: exponentially longer
// after each failure, with full jitter (a random wait up to the cap, so that the pages a
// restart cut off do not all come back in the same instant), and back to the start only
// once the new socket has answered with a good message: a socket the server accepts and
// then closes (its database down) counts as a failure, not as a success.

/** The first wait's cap, in milliseconds. */
export const FIRST_MS = 500;

/** The longest any wait may be, in milliseconds. */
export const MOST_MS = 30000;

/** A socket's failures in a row, and the wait before the next try. */
export class Backoff {
  /**
   * @param {() => number} [random] a number in [0, 1) (Math.random; tests pass their own)
   * @param {number} [first] the first wait's cap, ms
   * @param {number} [most] the longest wait, ms
   */
  constructor(random = Math.random, first = FIRST_MS, most = MOST_MS) {
    this.random = random;
    this.first = first;
    this.most = most;
    /** Failures since the last good message. */
    this.failures = 0;
  }

  /**
   * The wait before the next try after a socket closed, and one failure more.
   *
   * @returns {number} milliseconds
   */
  next() {
    const cap = Math.min(this.most, this.first * 2 ** Math.min(this.failures, 30));
    this.failures += 1;
    return Math.floor(cap / 2 + (this.random() * cap) / 2);
  }

  /** A good message came: the next failure waits the shortest again. */
  succeeded() {
    this.failures = 0;
  }
}
