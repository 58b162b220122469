// The four colours: their suit symbols, inks and order, and the colour of a card or emoji.
import type { Colour } from "./protocol";

export const COLOURS: readonly Colour[] = ["green", "red", "blue", "yellow"];

export const SUIT: Record<Colour, string> = { green: "♣", red: "♥", blue: "♦", yellow: "♠" };

/** Light pieces (green, yellow) take dark ink; dark ones (red, blue) white. */
export const DARK_INK: Record<Colour, boolean> = {
  green: true,
  red: false,
  blue: false,
  yellow: true,
};

const BY_SUIT_LETTER: Record<string, Colour> = { C: "green", H: "red", D: "blue", S: "yellow" };
const BY_SQUARE: Record<string, Colour> = { "🟩": "green", "🟥": "red", "🟦": "blue", "🟨": "yellow" };

/** The colour a card code ("7H") pays for, if it is one. */
export function colourOfCard(code: string): Colour | null {
  return BY_SUIT_LETTER[code.slice(-1)] ?? null;
}

/** The colour a coloured-square emoji (the panel's marks) stands for, if it is one. */
export function colourOfEmoji(emoji: string | undefined): Colour | null {
  return emoji ? (BY_SQUARE[emoji] ?? null) : null;
}
