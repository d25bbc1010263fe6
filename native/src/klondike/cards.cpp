#include "klondike/cards.hpp"

namespace solitaire::klondike {

std::string card_code(Card c) {
  if (!is_card(c)) return "??";
  return std::string{kRankLetters[rank_of(c) - 1], kSuitLetters[suit_of(c)]};
}

bool parse_card(std::string_view text, Card& card, bool& upper_suit) {
  if (text.size() < 2 || text.size() > 3) return false;
  const char suit_char = text.back();
  const std::string_view rank_text = text.substr(0, text.size() - 1);
  int suit = -1;
  for (int s = 0; s < kNumSuits; ++s) {
    if (suit_char == kSuitLetters[s] || suit_char == kSuitLetters[s] + ('a' - 'A')) suit = s;
  }
  if (suit < 0) return false;
  int rank = 0;
  if (rank_text == "10") {
    rank = 10;
  } else if (rank_text.size() == 1) {
    const char r = static_cast<char>(rank_text[0] >= 'a' ? rank_text[0] - ('a' - 'A') : rank_text[0]);
    for (int i = 0; i < kMaxRank; ++i) {
      if (kRankLetters[i] == r) rank = i + 1;
    }
    if (r == '1') rank = 0;  // "1" alone is not a rank here; aces are "A"
  }
  if (rank == 0) return false;
  card = make_card(rank, suit);
  upper_suit = suit_char >= 'A' && suit_char <= 'Z';
  return true;
}

}  // namespace solitaire::klondike
