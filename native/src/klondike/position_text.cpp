#include "klondike/position_text.hpp"

#include <vector>

namespace solitaire::klondike {

namespace {

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(sep, start);
    parts.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return parts;
}

std::string card_text(Card c, bool face_up) {
  std::string s = card_code(c);
  if (!face_up) s[1] = static_cast<char>(s[1] - 'A' + 'a');
  return s;
}

std::string cards_text(const std::vector<Card>& cards) {
  if (cards.empty()) return "-";
  std::string out;
  for (Card c : cards) {
    if (!out.empty()) out += ',';
    out += card_code(c);
  }
  return out;
}

bool parse_cards(std::string_view text, std::vector<Card>& out, std::string& error) {
  out.clear();
  if (text.empty() || text == "-") return true;
  for (std::string_view item : split(text, ',')) {
    Card c;
    bool up;
    if (!parse_card(item, c, up)) {
      error = "'" + std::string(item) + "' is not a card";
      return false;
    }
    out.push_back(c);
  }
  return true;
}

}  // namespace

std::string format_position(const Position& p) {
  std::string out = "t=";
  for (std::size_t i = 0; i < p.columns.size(); ++i) {
    if (i) out += '/';
    const ColumnCards& col = p.columns[i];
    if (col.face_down.empty() && col.face_up.empty()) {
      out += '-';
      continue;
    }
    bool first = true;
    for (Card c : col.face_down) {
      if (!first) out += ',';
      out += card_text(c, false);
      first = false;
    }
    for (Card c : col.face_up) {
      if (!first) out += ',';
      out += card_text(c, true);
      first = false;
    }
  }
  out += " s=" + cards_text(p.stock) + " w=" + cards_text(p.waste) + " f=";
  for (int s = 0; s < kNumSuits; ++s) {
    if (s) out += ',';
    out += std::to_string(p.foundation[static_cast<std::size_t>(s)]);
  }
  if (p.max_rank != kMaxRank) out += " r=" + std::to_string(p.max_rank);
  return out;
}

bool parse_position(std::string_view text, Position& p, std::string& error) {
  p = Position{};
  bool have_columns = false;
  for (std::string_view field : split(text, ' ')) {
    if (field.empty()) continue;
    if (field.size() < 2 || field[1] != '=') {
      error = "'" + std::string(field) + "' is not a field (t=, s=, w=, f=, r=)";
      return false;
    }
    const char name = field[0];
    const std::string_view value = field.substr(2);
    if (name == 't') {
      have_columns = true;
      for (std::string_view col_text : split(value, '/')) {
        ColumnCards col;
        if (col_text != "-" && !col_text.empty()) {
          for (std::string_view item : split(col_text, ',')) {
            Card c;
            bool up;
            if (!parse_card(item, c, up)) {
              error = "'" + std::string(item) + "' is not a card";
              return false;
            }
            if (up) {
              col.face_up.push_back(c);
            } else if (!col.face_up.empty()) {
              error = "face-down " + std::string(item) + " lies on a face-up card";
              return false;
            } else {
              col.face_down.push_back(c);
            }
          }
        }
        p.columns.push_back(col);
      }
    } else if (name == 's' || name == 'w') {
      if (!parse_cards(value, name == 's' ? p.stock : p.waste, error)) return false;
    } else if (name == 'f') {
      const auto parts = split(value, ',');
      if (parts.size() != static_cast<std::size_t>(kNumSuits)) {
        error = "f= needs 4 ranks (C,D,H,S)";
        return false;
      }
      for (int s = 0; s < kNumSuits; ++s) {
        const std::string part(parts[static_cast<std::size_t>(s)]);
        if (part.empty() || part.size() > 2 || part.find_first_not_of("0123456789") != std::string::npos) {
          error = "f=: '" + part + "' is not a rank number";
          return false;
        }
        p.foundation[static_cast<std::size_t>(s)] = std::stoi(part);
      }
    } else if (name == 'r') {
      const std::string part(value);
      if (part.empty() || part.size() > 2 || part.find_first_not_of("0123456789") != std::string::npos) {
        error = "r=: '" + part + "' is not a rank number";
        return false;
      }
      p.max_rank = std::stoi(part);
    } else {
      error = std::string("unknown field '") + name + "='";
      return false;
    }
  }
  if (!have_columns) {
    error = "a position needs t= (the columns)";
    return false;
  }
  return true;
}

}  // namespace solitaire::klondike
