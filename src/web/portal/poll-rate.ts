/**
 * How often the portal's screens ask for what changed, and how much: a member's session spends a budget of its own
 * (D24, D27), and a screen left open all day must fit in it with room for the person's own work.
 * test/unit/portal-poll-cost.test.ts prices each poll.
 */

/** How often a screen asks for what changed; a hidden tab does not ask. */
export const POLL_MS = 5000;

/** How many changes one poll of a list asks for: a few seconds' worth, so the poll costs little of the budget. */
export const CHANGES_PER_POLL = 10;
