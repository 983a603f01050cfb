#pragma once
// A parsed node search: whitespace-separated terms, all of which must hold. A plain word occurs in the
// name or target; fields narrow it: op:call_function, name:text or name:/regex/, target:text or
// target:/regex/, shape:1,128,4096 (a * matches any one dimension). Text matches case-insensitively.

#include "ir/node.h"
#include "util/result.h"

#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <optional>
#include <string>
#include <vector>

namespace fxs {

class NodeSearchQuery {
public:
    // Errors give the 1-based column of the bad term: "<search>:1:9: expected ..., found ...".
    static Result<NodeSearchQuery> parse(const QString &text);

    bool isEmpty() const { return m_words.isEmpty() && m_fields.empty(); }
    bool matches(const Node &node) const;

private:
    enum class Field { Name, Target, Op, Shape };
    struct Term {
        Field field;
        QString text; // name and target: the substring
        OpKind op = OpKind::Placeholder; // op
        std::optional<QRegularExpression> regex;
        std::vector<std::optional<std::string>> dims; // shape, as Dim::toString writes them; nullopt is *
    };

    QStringList m_words;
    std::vector<Term> m_fields;
};

} // namespace fxs
