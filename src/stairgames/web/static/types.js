// The shapes the page shares between its modules, as JSDoc types for tsc (checkJs): the
// server's messages (docs/web.md) and the match page's state. No code: nothing imports
// this file at run time (types are imported with `import("./types.js").View`).

/**
 * A seat of a match's view.
 *
 * @typedef {object} Seat
 * @property {number} seat
 * @property {string} name the seat's name, a message id ("light", "red")
 * @property {"human" | "online" | "computer"} kind
 * @property {string | null} [level] a computer's level
 * @property {string | null} [player] the player's name, where a player holds it
 * @property {boolean | null} [bot] true where a bot account holds it (issue 53)
 * @property {string | null} [rating] a rated game's: the player's rating as shown ("1500?")
 * @property {number | null} [rating_change] a rated game's once over: the points it changed
 * @property {boolean} [connected]
 * @property {boolean} [taken]
 */

/**
 * A match's state for one viewer: the WebSocket's "state" message and GET
 * /api/matches/{id} (docs/web.md has every field).
 *
 * @typedef {object} View
 * @property {"state"} [type]
 * @property {string} match
 * @property {string} game
 * @property {string} title
 * @property {number} event
 * @property {number | null} you the viewer's seat, null: a spectator
 * @property {number | null} to_act
 * @property {Seat[]} seats
 * @property {string[]} history every move so far, in notation
 * @property {string[]} legal the viewer's legal moves
 * @property {any} board the game's drawing data (its board.js reads it)
 * @property {{winners: number[], reason?: string, reason_id?: string,
 *   reason_args?: Record<string, unknown>} | null} result
 * @property {unknown[][] | null} [narration] a told game's sentences, one list a move
 * @property {import("./clocktext.js").Clock | null} [clock]
 * @property {{kind: string}} [time_control] none, realtime or correspondence (and its numbers)
 * @property {string[]} [premoves] the moves the viewer may queue while its opponent thinks
 * @property {string | null} [rematch]
 * @property {number[]} [rematch_asked]
 * @property {number} [spectators]
 * @property {boolean} [thinking]
 * @property {string | null} [computer_note]
 * @property {{level: string, like: string | null, above?: string | null, below?: string | null}} [computer_stand_in]
 *   while the note is "warming": the level the stand-in plays for, and the level it is
 *   about as strong as, or the levels it is stronger (above) and weaker (below) than
 * @property {import("./net.js").ServerError | null} [computer_error]
 * @property {{by: number} | null} [offer]
 * @property {{by: number} | null} [takeback]
 * @property {{by: number, outcome: string} | null} [takeback_outcome]
 * @property {boolean} [can_undo]
 * @property {boolean} [can_takeback]
 * @property {number[]} [left]
 * @property {string | null} [last_move]
 * @property {number | null} [last_mover]
 * @property {{seat: number, token: string}[]} [tokens]
 */

/**
 * A game option of GET /api/games, as the game declared it (core/options.py's
 * option_listing): its words are message ids, translated where they are shown.
 *
 * @typedef {object} GameOption
 * @property {string} name
 * @property {string} type "bool", "int", "str", "choice", ...
 * @property {unknown} default
 * @property {unknown[] | null} [choices]
 * @property {string} [kind] the input a form draws: "flag", "choice", "number", "list",
 *   "text", "seat" (a seat, or none for at random) or "file" (an uploaded file's id)
 * @property {string} [label] what a form calls it
 * @property {string} [help] a sentence on what it does
 * @property {string} [summary] how a set of options tells it ("{value}×{value} board")
 * @property {Record<string, string>} [choice_labels] a choice's words for each value
 * @property {number | null} [min]
 * @property {number | null} [max]
 * @property {boolean} [optional] it may be left empty (its default: none)
 * @property {boolean} [offered] false: the forms keep its default
 * @property {boolean} [seats_from] it is the number of seats
 * @property {string} [placeholder] an example value, not translated
 * @property {string} [default_label] a file option's choice of no file (a message id)
 * @property {string} [upload_label] a file option's upload button (a message id)
 * @property {string} [checking] said while an uploaded file is checked (a message id)
 * @property {string} [ready] said once it is kept, with `{name}` (a message id)
 */

/**
 * A game of GET /api/games.
 *
 * @typedef {object} Game
 * @property {string} name
 * @property {string} title
 * @property {boolean} [web] false: no browser board
 * @property {GameOption[]} options
 * @property {string[]} seat_names
 * @property {string[]} levels
 * @property {string[]} [rules_summary]
 * @property {string} [summary]
 * @property {unknown} [preview]
 * @property {number} [min_players]
 * @property {number} [max_players]
 * @property {[number, number]} [play_minutes]
 * @property {[number, number] | null} [realtime_default]
 * @property {Record<string, string[]>} [seats_by_players]
 * @property {boolean} [puzzles] it has puzzles (a shipped set)
 * @property {Record<string, string>} [puzzle_themes] its puzzles' theme ids, each with its
 *   name (a message id)
 */

/**
 * What a game's board.js is given to draw with (docs/browser.md, "draw(svg, board, ui)").
 *
 * @typedef {object} DrawOptions
 * @property {string[]} legal
 * @property {string | null} lastMove
 * @property {boolean} [over]
 * @property {(move: string) => void} play
 * @property {(id: string, args?: Record<string, unknown>) => string} t
 * @property {(singular: string, plural: string, n: number, args?: Record<string, unknown>) => string} [ngettext]
 * @property {Record<string, any>} memory
 * @property {number | null} you
 * @property {boolean} animate
 * @property {{move: string, instead?: boolean, board?: unknown} | null} [hint]
 * @property {HTMLElement} [notes]
 */

/** @typedef {(svg: SVGSVGElement, board: any, ui: DrawOptions) => void} Draw */

/**
 * The match page's state (app.js's `app`): written by app.js; stepping.js changes the
 * replay through its methods only.
 *
 * @typedef {object} App
 * @property {Game[]} games
 * @property {string | null} match
 * @property {View | null} view
 * @property {Record<string, WebSocket>} sockets by seat ("null": a spectator's)
 * @property {Record<string, string | undefined>} tokens seat tokens kept in localStorage
 * @property {number[]} held the seats this browser's player holds
 * @property {Record<string, any>} memory the board's selection, kept between draws
 * @property {import("./replay.js").Replay} replay the position shown, the boards seen
 * @property {number | null} viewSeat the seat whose view is shown
 * @property {number | null} confirmedSeat the seat whose person tapped "show my cards"
 * @property {ReturnType<typeof setTimeout> | undefined} noticeTimer
 * @property {Draw | null} draw
 * @property {string | null} drawFor the game `draw` draws
 * @property {number} lastEvent
 * @property {import("./backoff.js").Backoff} retry
 * @property {import("./pending.js").PendingMove} pending a move made while disconnected
 * @property {{request: {type: string, [key: string]: unknown}, event: number} | null} lastSent
 *   the last request sent (kept again when the server answers that its database is away)
 * @property {number} renders
 */

export {};
