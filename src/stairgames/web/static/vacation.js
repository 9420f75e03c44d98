// Vacation (issue 54; docs/web.md, "Vacation"): the notice "on vacation until …" beside a
// seat away in a correspondence game (static/clock.js asks for it), and on the account
// page the days left, the button that starts or ends a vacation and the switch that lets
// the server start one by itself near a deadline (GET and POST /api/me/vacation).

import { language, onLanguageChange, t } from "./i18n.js";
import { api, failureText } from "./net.js";

/**
 * @typedef {object} Vacation
 * @property {boolean} away
 * @property {number | null} until_ms
 * @property {boolean} started_by_server
 * @property {number} days_left
 * @property {boolean} automatic
 * @property {number} days_a_year
 * @property {number} most_days
 */

/**
 * A moment as the reader's language writes a day and an hour ("5 Dec, 14:00").
 *
 * @param {number} ms
 */
export function momentText(ms) {
  return new Intl.DateTimeFormat(language(), {
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  }).format(new Date(ms));
}

/**
 * The notice of a seat away (`null`: the seat is not away), from a correspondence view's
 * `clock.away` (each `{seat, until_ms}`).
 *
 * @param {{[field: string]: unknown, away?: {seat: number, until_ms: number}[] | null}
 *   | null | undefined} clock
 * @param {number} seat
 * @returns {string | null}
 */
export function awayNotice(clock, seat) {
  const away = (clock?.away || []).find((entry) => entry.seat === seat);
  if (!away) return null;
  return t("on vacation until {moment}", { moment: momentText(away.until_ms) });
}

// ----- the account page ----------------------------------------------------------------

/** @type {Vacation | null} */
let shown = null;

/**
 * Add the vacation section to the account page (after `after`) and show the player's days.
 *
 * @param {HTMLElement} after
 */
export async function startVacation(after) {
  const section = document.createElement("section");
  section.id = "vacation";
  section.setAttribute("aria-labelledby", "vacation-heading");
  after.after(section);
  onLanguageChange(() => draw(section));
  try {
    shown = await api("/api/me/vacation");
  } catch (failure) {
    shown = null;
    draw(section, failureText(failure));
    return;
  }
  draw(section);
}

/**
 * @param {HTMLElement} section
 * @param {string} [error]
 */
function draw(section, error = "") {
  const heading = document.createElement("h2");
  heading.id = "vacation-heading";
  heading.textContent = t("Vacation");
  const about = document.createElement("p");
  about.textContent = t(
    "On vacation, your correspondence games wait for you: their clocks stop until you are back or your days run out. Real-time games go on.",
  );
  /** @type {HTMLElement[]} */
  const parts = [heading, about];
  const vacation = shown;
  if (vacation) {
    const state = document.createElement("p");
    state.id = "vacation-state";
    state.setAttribute("role", "status");
    state.textContent = vacation.away
      ? t("You are on vacation until {moment}.", { moment: momentText(vacation.until_ms ?? 0) })
      : t("You are not on vacation.");
    const days = document.createElement("p");
    days.id = "vacation-days";
    days.textContent = t(
      "Days left: {days}. The bank grows by {year} days a year, up to {most}; a vacation spends it by the hour, not by whole days.",
      {
        days: vacation.days_left.toFixed(1),
        year: vacation.days_a_year,
        most: vacation.most_days,
      },
    );
    const toggle = document.createElement("button");
    toggle.type = "button";
    toggle.id = "vacation-toggle";
    toggle.textContent = vacation.away ? t("End my vacation") : t("Start a vacation");
    toggle.disabled = !vacation.away && vacation.days_left <= 0.04;
    toggle.addEventListener("click", () =>
      change(section, { action: vacation.away ? "end" : "start" }),
    );
    const label = document.createElement("label");
    const automatic = document.createElement("input");
    automatic.type = "checkbox";
    automatic.id = "vacation-automatic";
    automatic.checked = vacation.automatic;
    automatic.addEventListener("change", () => change(section, { automatic: automatic.checked }));
    label.append(
      automatic,
      " ",
      t("Start a vacation by itself when a correspondence deadline is an hour away"),
    );
    parts.push(state, days, toggle, label);
  }
  const failed = document.createElement("p");
  failed.className = "error";
  failed.setAttribute("role", "alert");
  failed.hidden = !error;
  failed.textContent = error;
  parts.push(failed);
  section.replaceChildren(...parts);
}

/**
 * @param {HTMLElement} section
 * @param {{action?: string, automatic?: boolean}} asked
 */
async function change(section, asked) {
  try {
    shown = await api("/api/me/vacation", { json: asked });
  } catch (failure) {
    draw(section, failureText(failure));
    return;
  }
  draw(section);
  // the section is drawn anew: the focus goes back to the control just used
  const used = section.querySelector(asked.action ? "#vacation-toggle" : "#vacation-automatic");
  if (used instanceof HTMLElement) used.focus();
}
