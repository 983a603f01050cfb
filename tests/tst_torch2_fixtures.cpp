// Dumps that a real torch 2.x wrote (tests/data/torch2, by python/tools/make_torch_fixtures.py): each loads with
// fxscope's loader into the graphs torch itself reported in summary.json — node counts, op counts, call_function
// targets, node names, nested graphs — and the data is what the generator, as committed, wrote.
#include "io/loader.h"
#include "ir/lint.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <map>

using namespace fxs;

namespace {

const QString kDataDir = QStringLiteral(FXSCOPE_TEST_DATA_DIR "/torch2/");
const QString kGenerator = QStringLiteral("python/tools/make_torch_fixtures.py");
const QString kRegenerate = QStringLiteral("stale fixtures: rerun .venv/bin/python ") + kGenerator;

QJsonObject readSummary(QString *error)
{
    QFile f(kDataDir + QStringLiteral("summary.json"));
    if (!f.open(QIODevice::ReadOnly)) {
        *error = f.fileName() + QStringLiteral(": cannot open: ") + f.errorString();
        return {};
    }
    QJsonParseError parseError;
    QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &parseError);
    if (!doc.isObject()) {
        *error = f.fileName() + QStringLiteral(": not a JSON object: ") + parseError.errorString();
        return {};
    }
    return doc.object();
}

QString sha256Of(const QString &path, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = path + QStringLiteral(": cannot open: ") + f.errorString();
        return {};
    }
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&f);
    return QString::fromLatin1(hash.result().toHex());
}

// One graph as lines that compare well: "nodes N", "op KIND N", "target T N", "placeholders x y" and "names a b c"
// (every other node, in graph order), nested graphs prefixed with their attribute name ("true_graph_0/nodes 8").
// Placeholders are compared apart from the other nodes because generated code cannot place them: FX's codegen
// writes every placeholder into the `def forward(...)` line, wherever it sits in the graph. ep.module()'s graph has
// its get_attr nodes before placeholder `x` (readable/transformer_unlifted.py), its code has `x` first.

void describeTorch(const QJsonObject &g, const QString &prefix, QStringList &out)
{
    out << prefix + QStringLiteral("nodes %1").arg(g.value(QStringLiteral("nodes")).toInt());
    const QJsonObject ops = g.value(QStringLiteral("ops")).toObject();
    for (auto it = ops.begin(); it != ops.end(); ++it)
        out << prefix + QStringLiteral("op %1 %2").arg(it.key()).arg(it.value().toInt());
    const QJsonObject targets = g.value(QStringLiteral("call_function_targets")).toObject();
    for (auto it = targets.begin(); it != targets.end(); ++it)
        out << prefix + QStringLiteral("target %1 %2").arg(it.key()).arg(it.value().toInt());
    // The summary lists names in graph order; placeholders go first here, as in describeFxscope.
    QStringList placeholders = g.value(QStringLiteral("placeholders")).toVariant().toStringList();
    QStringList names;
    for (const QJsonValue &n : g.value(QStringLiteral("names")).toArray())
        if (!placeholders.contains(n.toString()))
            names << n.toString();
    out << prefix + QStringLiteral("placeholders ") + placeholders.join(QLatin1Char(' '));
    out << prefix + QStringLiteral("names ") + names.join(QLatin1Char(' '));
    const QJsonObject subgraphs = g.value(QStringLiteral("subgraphs")).toObject();
    for (auto it = subgraphs.begin(); it != subgraphs.end(); ++it)
        describeTorch(it.value().toObject(), prefix + it.key() + QLatin1Char('/'), out);
}

void describeFxscope(const Graph &g, const QString &prefix, QStringList &out)
{
    out << prefix + QStringLiteral("nodes %1").arg(g.size());
    std::map<std::string, int> ops;
    std::map<std::string, int> targets;
    QStringList placeholders;
    QStringList names;
    for (const auto &n : g.nodes()) {
        ++ops[opKindName(n->op())];
        if (n->op() == OpKind::CallFunction)
            ++targets[n->target()];
        (n->op() == OpKind::Placeholder ? placeholders : names) << QString::fromStdString(n->name());
    }
    // Sorted by name, as the summary's keys are (QJsonObject iterates in key order).
    for (const auto &[op, count] : ops)
        out << prefix + QStringLiteral("op %1 %2").arg(QString::fromStdString(op)).arg(count);
    for (const auto &[target, count] : targets)
        out << prefix + QStringLiteral("target %1 %2").arg(QString::fromStdString(target)).arg(count);
    out << prefix + QStringLiteral("placeholders ") + placeholders.join(QLatin1Char(' '));
    out << prefix + QStringLiteral("names ") + names.join(QLatin1Char(' '));
    std::map<std::string, const Graph *> subgraphs;
    for (const auto &[name, sub] : g.subgraphs())
        subgraphs[name] = sub.get();
    for (const auto &[name, sub] : subgraphs)
        describeFxscope(*sub, prefix + QString::fromStdString(name) + QLatin1Char('/'), out);
}

// torch.export programs: each input's GraphSignature kind and target, and the range constraints, as torch reported
// them ("signature", "range_constraints" in the summary; InputKind names map to the serialized schema's union names).
QStringList programTorch(const QJsonObject &g)
{
    static const std::map<QString, QString> kinds = {
        {QStringLiteral("USER_INPUT"), QStringLiteral("user_input")},
        {QStringLiteral("PARAMETER"), QStringLiteral("parameter")},
        {QStringLiteral("BUFFER"), QStringLiteral("buffer")},
        {QStringLiteral("CONSTANT_TENSOR"), QStringLiteral("tensor_constant")},
        {QStringLiteral("CUSTOM_OBJ"), QStringLiteral("custom_obj")},
        {QStringLiteral("TOKEN"), QStringLiteral("token")},
    };
    QStringList out;
    const QJsonObject signature = g.value(QStringLiteral("signature")).toObject();
    for (const QJsonValue &v : signature.value(QStringLiteral("inputs")).toArray()) {
        const QJsonArray spec = v.toArray();
        auto kind = kinds.find(spec[0].toString());
        out << QStringLiteral("input %1 %2 %3")
                   .arg(spec[1].toString(), kind == kinds.end() ? spec[0].toString() : kind->second,
                       spec[2].isString() ? spec[2].toString() : QStringLiteral("-"));
    }
    const QJsonObject ranges = g.value(QStringLiteral("range_constraints")).toObject();
    for (auto it = ranges.begin(); it != ranges.end(); ++it)
        out << QStringLiteral("range %1 %2 %3")
                   .arg(it.key(), it.value().toArray()[0].toString(), it.value().toArray()[1].toString());
    return out;
}

QStringList programFxscope(const Graph &g)
{
    QStringList out;
    for (Node *p : g.placeholders()) {
        const Json &spec = p->meta().extra["input_spec"];
        out << QStringLiteral("input %1 %2 %3")
                   .arg(QString::fromStdString(p->name()), QString::fromStdString(spec["kind"].toString()),
                       spec["target"].isString() ? QString::fromStdString(spec["target"].toString())
                                                 : QStringLiteral("-"));
    }
    const Node *output = g.outputNode();
    if (!output)
        return out << QStringLiteral("no output node");
    std::map<std::string, QString> ranges; // sorted, as the summary's keys
    for (const auto &[symbol, range] : output->meta().extra["range_constraints"].members()) {
        auto bound = [](const Json &b, const char *infinite) {
            return b.isInt() ? QString::number(b.toInt()) : QString::fromLatin1(infinite);
        };
        ranges[symbol] = QStringLiteral("range %1 %2 %3")
                             .arg(QString::fromStdString(symbol), bound(range["min_val"], "-int_oo"),
                                 bound(range["max_val"], "int_oo"));
    }
    for (const auto &[symbol, line] : ranges)
        out << line;
    return out;
}

QStringList lintAll(const Graph &g, const std::string &name)
{
    QStringList problems;
    for (const auto &p : lint(g))
        problems << QString::fromStdString(name + ": " + p);
    return problems;
}

} // namespace

class TestTorch2Fixtures : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The data is what the generator as committed wrote: its sha256, and every file's, are in summary.json.
    void dataIsCurrent()
    {
        QString error;
        const QJsonObject summary = readSummary(&error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QJsonObject generator = summary.value(QStringLiteral("generator")).toObject();
        QCOMPARE(generator.value(QStringLiteral("script")).toString(), kGenerator);
        const QString script = sha256Of(QStringLiteral(FXSCOPE_SOURCE_DIR "/") + kGenerator, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(script == generator.value(QStringLiteral("sha256")).toString(),
            qPrintable(kGenerator + QStringLiteral(" changed since the data was written. ") + kRegenerate));
        const QJsonObject files = summary.value(QStringLiteral("files")).toObject();
        QVERIFY(!files.isEmpty());
        for (auto it = files.begin(); it != files.end(); ++it) {
            const QString actual = sha256Of(kDataDir + it.key(), &error);
            QVERIFY2(error.isEmpty(), qPrintable(error + QStringLiteral(". ") + kRegenerate));
            QVERIFY2(actual == it.value().toString(),
                qPrintable(it.key() + QStringLiteral(" is not what the generator wrote. ") + kRegenerate));
        }
        // Every data file is listed, so nothing unchecked sits in the folder.
        QDirIterator dir(kDataDir, QDir::Files, QDirIterator::Subdirectories);
        while (dir.hasNext()) {
            const QString rel = QDir(kDataDir).relativeFilePath(dir.next());
            if (rel != QLatin1String("summary.json") && rel != QLatin1String("README.md"))
                QVERIFY2(files.contains(rel),
                    qPrintable(rel + QStringLiteral(" is not in summary.json. ") + kRegenerate));
        }
    }

    void fixture_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("format");
        QTest::addColumn<QJsonArray>("graphs");
        QString error;
        const QJsonObject summary = readSummary(&error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QJsonArray fixtures = summary.value(QStringLiteral("fixtures")).toArray();
        QVERIFY(fixtures.size() >= 10);
        for (const QJsonValue &v : fixtures) {
            const QJsonObject fx = v.toObject();
            const QString file = fx.value(QStringLiteral("file")).toString();
            QTest::newRow(qPrintable(file)) << file << fx.value(QStringLiteral("format")).toString()
                                            << fx.value(QStringLiteral("graphs")).toArray();
        }
    }

    // Each fixture loads, cleanly, into the graphs torch reported, in the order torch wrote them; TORCH_TRACE
    // graphs sit at the record's line and carry its kind.
    void fixture()
    {
        QFETCH(QString, file);
        QFETCH(QString, format);
        QFETCH(QJsonArray, graphs);
        auto loaded = loadGraphFile((kDataDir + file).toStdString());
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().toString().c_str());
        QCOMPARE(QString::fromStdString(loaded->format), format);
        QStringList warnings;
        for (const Error &w : loaded->warnings)
            warnings << QString::fromStdString(w.toString());
        QCOMPARE(warnings, QStringList());

        QStringList expectedGraphs;
        QStringList actualGraphs;
        for (const QJsonValue &v : graphs) {
            const QJsonObject g = v.toObject();
            if (g.contains(QStringLiteral("line")))
                expectedGraphs << QStringLiteral("line %1: %2")
                                      .arg(g.value(QStringLiteral("line")).toInt())
                                      .arg(g.value(QStringLiteral("kind")).toString());
            else
                expectedGraphs << QStringLiteral("graph");
        }
        for (const NamedGraph &g : loaded->graphs) {
            if (format == QLatin1String("torch_trace"))
                actualGraphs << QStringLiteral("line %1: %2").arg(g.line).arg(QString::fromStdString(g.kind));
            else
                actualGraphs << QStringLiteral("graph");
        }
        QCOMPARE(actualGraphs, expectedGraphs);

        for (qsizetype i = 0; i < graphs.size(); ++i) {
            const NamedGraph &g = loaded->graphs[size_t(i)];
            QStringList expected;
            describeTorch(graphs[i].toObject(), QString::fromStdString(g.name) + QStringLiteral(": "), expected);
            QStringList actual;
            describeFxscope(*g.graph, QString::fromStdString(g.name) + QStringLiteral(": "), actual);
            QCOMPARE(actual, expected);
            QCOMPARE(lintAll(*g.graph, g.name), QStringList());
            if (format == QLatin1String("pt2") || format == QLatin1String("export_json"))
                QCOMPARE(programFxscope(*g.graph), programTorch(graphs[i].toObject()));
        }
    }
};

QTEST_GUILESS_MAIN(TestTorch2Fixtures)
#include "tst_torch2_fixtures.moc"
