// A one-line text form of a position, for the command-line driver and the tests.
//
//   t=5c,9d,KH/AS/-/... s=AH,2C,... w=7D,8S f=0,0,1,0 r=13
//
// * t= the columns separated by '/', each listed from its bottom to its end, cards separated by
//   ','; a lower-case suit letter marks a face-down card ("9d"), an upper-case one a face-up
//   card ("KH"); "-" is an empty column.
// * s= the stock from its bottom to its top (the last card is drawn first); w= the waste from its
//   bottom to its top (the last card is playable); "-" or nothing for none.
// * f= the top rank on the foundations of C, D, H, S (0 = empty); default 0,0,0,0.
// * r= the highest rank of the deck (default 13), for reduced test decks.
// Fields are separated by spaces, in any order; t= is required.
#pragma once

#include <string>
#include <string_view>

#include "klondike/position.hpp"

namespace solitaire::klondike {

std::string format_position(const Position& position);

// False (with `error` set) when `text` is not in the form above; the position is not validated.
bool parse_position(std::string_view text, Position& position, std::string& error);

}  // namespace solitaire::klondike
