#pragma once
// A tokenizer for Python source that follows CPython's `tokenize` module: NAME, NUMBER, STRING, OP, COMMENT,
// NEWLINE (end of a logical line) versus NL (a break inside brackets, or a blank or comment-only line),
// INDENT/DEDENT and ENDMARKER, each with a 1-based line and column. It pulls one token at a time so large dumps
// never need a token array, and it is shared by the readable-graph parser and the pattern-file interpreter.

#include "../util/result.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace fxs {

enum class TokenKind { Name, Number, String, Op, Comment, Newline, NL, Indent, Dedent, EndMarker, Error };

const char *tokenKindName(TokenKind kind);

struct Token {
    TokenKind kind = TokenKind::EndMarker;
    std::string_view text; // the exact source bytes (empty for DEDENT and ENDMARKER)
    int line = 0; // 1-based, already shifted by the tokenizer's firstLine
    int column = 0; // 1-based byte column
    size_t offset = 0; // byte offset in the tokenized text

    bool isOp(std::string_view op) const { return kind == TokenKind::Op && text == op; }
    bool isName(std::string_view name) const { return kind == TokenKind::Name && text == name; }
    size_t end() const { return offset + text.size(); }
    // How the token reads in an error message: 'x', end of line, end of file, an indent, ...
    std::string describe() const;
};

class PythonTokenizer {
public:
    // firstLine/firstColumn say where `text` starts in the enclosing file (a TORCH_TRACE payload, a text after
    // a stripped log prefix), so every token carries its real file position.
    explicit PythonTokenizer(std::string_view text, int firstLine = 1, int firstColumn = 1);

    // The next token. After an Error token every later call returns the same Error token.
    Token next();

    // Why the Error token was produced, as "expected X, found Y"; empty before any error.
    const std::string &errorMessage() const { return m_errorMessage; }
    std::string_view text() const { return m_text; }
    // Line and column of a byte offset in the text, with the same shift as the tokens.
    std::pair<int, int> position(size_t offset) const;

    // Every token up to and including ENDMARKER; the error carries line and column, no file name.
    static Result<std::vector<Token>> tokenizeAll(std::string_view text, int firstLine = 1, int firstColumn = 1);

private:
    struct Bracket {
        char open;
        int line;
        int column;
    };

    Token make(TokenKind kind, size_t begin, size_t end) const;
    Token fail(size_t at, std::string message);
    bool atLineStart(); // handles indentation; false when an Error token was produced
    Token scanToken();
    Token scanString(size_t begin, size_t quotePos);
    Token scanNumber(size_t begin);
    Token finish(); // NEWLINE / DEDENTs / ENDMARKER at end of input

    std::string_view m_text;
    size_t m_pos = 0;
    size_t m_lineStart = 0;
    int m_line = 1;
    int m_firstLine = 1;
    int m_firstColumnShift = 0;
    bool m_atLineStart = true;
    bool m_continuation = false; // the previous line ended with a backslash
    bool m_lineHasTokens = false; // a token other than COMMENT was produced on the current logical line
    int m_pendingDedents = 0;
    bool m_done = false;
    bool m_failed = false;
    Token m_errorToken;
    std::string m_errorMessage;
    std::vector<int> m_indents{0};
    std::vector<Bracket> m_brackets;
};

// The value of a STRING token's text: prefixes (r, b, u, f), single or triple quotes, and escapes
// (\n, \t, \\, \', \", \xNN, \uNNNN, \UNNNNNNNN, \N is kept verbatim, octal). Code points become UTF-8.
Result<std::string> decodeStringLiteral(std::string_view tokenText);

// True for the hard keywords of Python 3 (def, class, return, None, True, False, ...).
bool isPythonKeyword(std::string_view word);

} // namespace fxs
