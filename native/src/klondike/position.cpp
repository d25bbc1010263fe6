#include "klondike/position.hpp"

#include <stdexcept>

namespace solitaire::klondike {

Position position_from_deal(const std::vector<Card>& deal_order) {
  if (deal_order.size() != static_cast<std::size_t>(kNumCards)) {
    throw std::invalid_argument("a Klondike deal has 52 cards, got " +
                                std::to_string(deal_order.size()));
  }
  Position p;
  p.columns.resize(kMaxColumns);
  std::size_t i = 0;
  for (int pass = 0; pass < kMaxColumns; ++pass) {
    for (int col = pass; col < kMaxColumns; ++col) {
      ColumnCards& column = p.columns[static_cast<std::size_t>(col)];
      (col == pass ? column.face_up : column.face_down).push_back(deal_order[i++]);
    }
  }
  // deal_order[28] is the stock's top; the stock is stored bottom -> top.
  for (std::size_t j = deal_order.size(); j-- > i;) p.stock.push_back(deal_order[j]);
  return p;
}

int suits_in_play(const Position& position) {
  int mask = 0;
  auto add = [&mask](Card c) {
    if (is_card(c)) mask |= 1 << suit_of(c);
  };
  for (const ColumnCards& col : position.columns) {
    for (Card c : col.face_down) add(c);
    for (Card c : col.face_up) add(c);
  }
  for (Card c : position.stock) add(c);
  for (Card c : position.waste) add(c);
  for (int s = 0; s < kNumSuits; ++s) {
    if (position.foundation[static_cast<std::size_t>(s)] > 0) mask |= 1 << s;
  }
  return mask;
}

std::string validate(const Position& position) {
  if (position.max_rank < 1 || position.max_rank > kMaxRank) {
    return "max_rank must be 1..13, got " + std::to_string(position.max_rank);
  }
  if (position.columns.empty() || position.columns.size() > static_cast<std::size_t>(kMaxColumns)) {
    return "a position has 1..7 columns, got " + std::to_string(position.columns.size());
  }
  std::array<int, kNumCards> seen{};
  std::string error;
  auto place = [&](Card c, const char* where) {
    if (!error.empty()) return;
    if (!is_card(c)) {
      error = "card number " + std::to_string(c) + " in the " + where + " is not a card (0..51)";
    } else if (rank_of(c) > position.max_rank) {
      error = card_code(c) + " in the " + where + " is above max_rank " +
              std::to_string(position.max_rank);
    } else if (seen[static_cast<std::size_t>(c)]++ != 0) {
      error = card_code(c) + " appears twice";
    }
  };
  for (const ColumnCards& col : position.columns) {
    for (Card c : col.face_down) place(c, "tableau");
    for (Card c : col.face_up) place(c, "tableau");
  }
  for (Card c : position.stock) place(c, "stock");
  for (Card c : position.waste) place(c, "waste");
  if (!error.empty()) return error;
  for (int s = 0; s < kNumSuits; ++s) {
    const int top = position.foundation[static_cast<std::size_t>(s)];
    if (top < 0 || top > position.max_rank) {
      return std::string("foundation ") + kSuitLetters[s] + " holds rank " + std::to_string(top) +
             ", outside 0.." + std::to_string(position.max_rank);
    }
    for (int r = 1; r <= top; ++r) {
      if (seen[static_cast<std::size_t>(make_card(r, s))]++ != 0) {
        return card_code(make_card(r, s)) + " is both on its foundation and on the table";
      }
    }
  }
  const int in_play = suits_in_play(position);
  for (int s = 0; s < kNumSuits; ++s) {
    if ((in_play & (1 << s)) == 0) continue;
    for (int r = 1; r <= position.max_rank; ++r) {
      if (seen[static_cast<std::size_t>(make_card(r, s))] == 0) {
        return card_code(make_card(r, s)) + " is missing: every suit in play needs ranks 1.." +
               std::to_string(position.max_rank);
      }
    }
  }
  return {};
}

}  // namespace solitaire::klondike
