#pragma once
// A small JSON value with an order-preserving object, a parser that reports FILE:LINE:COL errors and
// bounds nesting depth, and a writer whose floats round-trip exactly.

#include "result.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fxs {

class Json {
public:
    enum class Type { Null, Bool, Int, Float, String, Array, Object };
    using Member = std::pair<std::string, Json>;

    Json() = default;
    Json(std::nullptr_t) { }
    Json(bool b) : m_type(Type::Bool), m_bool(b) { }
    Json(int i) : m_type(Type::Int), m_int(i) { }
    Json(int64_t i) : m_type(Type::Int), m_int(i) { }
    Json(size_t i) : m_type(Type::Int), m_int(int64_t(i)) { }
    Json(double d) : m_type(Type::Float), m_float(d) { }
    Json(const char *s) : m_type(Type::String), m_string(s) { }
    Json(std::string s) : m_type(Type::String), m_string(std::move(s)) { }
    Json(std::string_view s) : m_type(Type::String), m_string(s) { }

    static Json array(std::vector<Json> items = {});
    static Json object(std::vector<Member> members = {});

    Type type() const { return m_type; }
    bool isNull() const { return m_type == Type::Null; }
    bool isBool() const { return m_type == Type::Bool; }
    bool isInt() const { return m_type == Type::Int; }
    bool isFloat() const { return m_type == Type::Float; }
    bool isNumber() const { return isInt() || isFloat(); }
    bool isString() const { return m_type == Type::String; }
    bool isArray() const { return m_type == Type::Array; }
    bool isObject() const { return m_type == Type::Object; }

    bool toBool(bool fallback = false) const { return isBool() ? m_bool : fallback; }
    int64_t toInt(int64_t fallback = 0) const;
    double toDouble(double fallback = 0) const;
    const std::string &toString() const; // empty unless a string

    // Arrays.
    const std::vector<Json> &items() const; // empty unless an array
    std::vector<Json> &items();
    void push(Json value);
    size_t size() const;

    // Objects keep insertion order; lookup is linear, which suits the small objects of dump formats.
    const std::vector<Member> &members() const; // empty unless an object
    const Json *find(std::string_view key) const;
    const Json &operator[](std::string_view key) const; // a null Json when absent
    void set(std::string key, Json value); // replaces an existing key

    // Compact when indent < 0, else pretty-printed with that many spaces.
    std::string dump(int indent = -1) const;

    // fileName only labels errors. Nesting deeper than maxDepth is an error, not a stack overflow.
    static Result<Json> parse(std::string_view text, const std::string &fileName = {}, int maxDepth = 512);

    // Byte offset of this value in the text it was parsed from (0 when built in code), so that
    // structural errors can be reported at FILE:LINE:COL.
    size_t offset() const { return m_offset; }
    void setOffset(size_t offset) { m_offset = offset; }

    friend bool operator==(const Json &a, const Json &b);
    friend bool operator!=(const Json &a, const Json &b) { return !(a == b); }

private:
    void dumpTo(std::string &out, int indent, int level) const;

    Type m_type = Type::Null;
    bool m_bool = false;
    int64_t m_int = 0;
    double m_float = 0;
    size_t m_offset = 0;
    std::string m_string;
    std::vector<Json> m_items;
    std::vector<Member> m_members;
};

// Appends a JSON string literal (quoted, escaped) to out.
void appendJsonString(std::string &out, std::string_view s);
// Shortest text that reads back as the same double; always has a '.' or an exponent.
std::string formatDouble(double d);

} // namespace fxs
