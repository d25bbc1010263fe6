// Cards as the project numbers them: card = (rank - 1) * 4 + suit, rank 1..13 (A..K),
// suit 0..3 = clubs, diamonds, hearts, spades (diamonds and hearts are red).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace solitaire::klondike {

using Card = int;

inline constexpr int kNumCards = 52;
inline constexpr int kNumSuits = 4;
inline constexpr int kMaxRank = 13;
inline constexpr int kMaxColumns = 7;
inline constexpr char kSuitLetters[] = "CDHS";
inline constexpr char kRankLetters[] = "A23456789TJQK";

constexpr int rank_of(Card c) { return (c >> 2) + 1; }
constexpr int suit_of(Card c) { return c & 3; }
constexpr bool is_red_suit(int suit) { return suit == 1 || suit == 2; }
constexpr bool is_red(Card c) { return is_red_suit(suit_of(c)); }
constexpr Card make_card(int rank, int suit) { return (rank - 1) * 4 + suit; }
constexpr bool is_card(int value) { return value >= 0 && value < kNumCards; }
// The other suit of the same colour (clubs <-> spades, diamonds <-> hearts).
constexpr int twin_suit(int suit) { return 3 - suit; }

// Whether `lower` may lie on `upper` in a column: one rank lower, opposite colour.
constexpr bool builds_on(Card lower, Card upper) {
  return rank_of(upper) == rank_of(lower) + 1 && is_red(upper) != is_red(lower);
}

// "TH", "AS": rank letter then suit letter.
std::string card_code(Card c);

// Parses "TH", "10h", "as", "Kc"; the case of the suit letter is returned in `upper_suit`
// (positions use a lower-case suit for a face-down card). False if `text` is not a card.
bool parse_card(std::string_view text, Card& card, bool& upper_suit);

}  // namespace solitaire::klondike
