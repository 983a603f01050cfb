#pragma once
// Values for the symbols of dynamic shapes (s0, s1, u0...): given by the user (`profile --sym s0=128`), they
// make symbolic dims and SymInt placeholders concrete. Torch-free.

#include "util/result.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace fxs {

class Graph;

using SymbolValues = std::map<std::string, int64_t>;

// Evaluates a dim expression as sympy prints it: integers, symbols, + - * // % and parentheses, unary minus,
// FloorDiv(a, b), Max(a, b), Min(a, b). An unknown symbol is an error naming it.
Result<int64_t> evaluateSymbolic(const std::string &expr, const SymbolValues &values);

// Parses "s0=128" (also "s0=128,s1=4") into values; an error says what was expected.
Status parseSymbolAssignments(const std::string &text, SymbolValues &values);

// "symbol s0 has no value (give one with --sym s0=N)", or the plural for several.
std::string noValueMessage(const std::vector<std::string> &symbols);

// The symbols the graph's inputs need values for (in their sizes and SymInt placeholders), s2 before s10.
std::vector<std::string> inputSymbols(const Graph &graph);
// The symbols of inputSymbols(graph) that neither `values` nor the graph's hints give; empty when none.
std::vector<std::string> missingSymbols(const Graph &graph, const SymbolValues &values);

} // namespace fxs
