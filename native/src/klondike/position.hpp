// A Klondike position as the solver takes it: any position, not only a fresh deal.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "klondike/cards.hpp"

namespace solitaire::klondike {

// One tableau column, listed from its bottom to its end (the end is the card a person moves).
struct ColumnCards {
  std::vector<Card> face_down;  // bottom first
  std::vector<Card> face_up;    // bottom first; the last one is the column's end
};

// Everything on the table. The solver knows every card, face down or not ("thoughtful" game).
//
// * `columns`: 1..7 columns. A column whose face-up part is empty but whose face-down part is
//   not has its last face-down card turned up, as the game does by itself.
// * `stock` and `waste` list their cards from the bottom to the top: the stock's last card is
//   the next one drawn; the waste's last card is the one that can be played.
// * `foundation[s]`: rank of the top card on suit s's foundation (0 = empty), suits C D H S.
// * `max_rank`: the deck holds ranks 1..max_rank of every suit in play (13 for a full deck;
//   smaller for reduced test deals). A suit is in play when any of its cards is on the table or
//   on its foundation; the others are absent altogether. The top rank plays the King's part:
//   only it (or a run it heads) may go to an empty column.
// Face-up cards of a column that do not form a run down to the end cannot move until the cards
// below them have gone; the solver treats them like face-down cards (their order is known).
struct Position {
  std::vector<ColumnCards> columns;
  std::vector<Card> stock;  // bottom -> top; back() is drawn first
  std::vector<Card> waste;  // bottom -> top; back() is playable
  std::array<int, kNumSuits> foundation{};
  int max_rank = kMaxRank;
};

// The 52 cards of a deal in the project's deal order (solitaire_rl.envs.klondike.layout): the 28 tableau
// cards as a person deals them row by row, then the 24 stock cards from the top down.
Position position_from_deal(const std::vector<Card>& deal_order);

// Empty when `position` is one the solver accepts; else a sentence that says what is wrong.
std::string validate(const Position& position);

// Suits with at least one card on the table or on their foundation (bit s = suit s).
int suits_in_play(const Position& position);

}  // namespace solitaire::klondike
