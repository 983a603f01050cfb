// Round trips over every corpus file: fxscope JSON must be lossless; readable Python written by
// fxscope must read back to the same graph (structure, arguments, shapes and source locations).
#include "io/fxscope_json.h"
#include "io/loader.h"
#include "io/readable_parser.h"
#include "io/readable_writer.h"
#include "ir/canonical_printer.h"
#include "ir/lint.h"

#include <QtTest>

#include <QDirIterator>

using namespace fxs;

namespace {

// What readable code can carry: structure, arguments, value annotations, source locations.
std::string readableCore(const Graph &graph)
{
    std::string out;
    for (const auto &owned : graph.nodes()) {
        const Node &n = *owned;
        out += n.name() + " " + opKindName(n.op()) + " " + n.target() + "(";
        for (const auto &a : n.args())
            out += a.toFxText() + ", ";
        for (const auto &kv : n.kwargs())
            out += kv.first + "=" + kv.second.toFxText() + ", ";
        out += ")";
        const auto &val = n.meta().val;
        // The output's val (the capture backend writes it) has no place in readable code.
        if (val && val->kind != ValueMeta::Kind::Tuple && n.op() != OpKind::Output)
            out += " " + val->toAnnotation();
        // Readable code places a source as a "# File:" comment before the node's line; Dynamo's placeholders (torch
        // 2.13 gives them the stack trace of the frame) have none, as in print_readable.
        if (n.meta().source && n.op() != OpKind::Placeholder)
            out += " @" + n.meta().source->file + ":" + std::to_string(n.meta().source->line);
        out += "\n";
    }
    for (const auto &sub : graph.subgraphs())
        out += "subgraph " + sub.first + "\n" + readableCore(*sub.second);
    return out;
}

} // namespace

class TestRoundTrip : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void corpus_data()
    {
        QTest::addColumn<QString>("path");
        QDirIterator it(FXSCOPE_CORPUS_DIR, QDir::Files, QDirIterator::Subdirectories);
        QStringList paths;
        while (it.hasNext()) {
            QString p = it.next();
            if (!p.endsWith(".md"))
                paths << p;
        }
        QDirIterator data(FXSCOPE_TEST_DATA_DIR, QDir::Files, QDirIterator::Subdirectories);
        while (data.hasNext()) {
            QString p = data.next();
            // torch2/summary.json is what torch reported about the real fixtures beside it, not a graph. A recording's
            // steps are read as the recording (its recording.json), not one by one: a step that changed nothing
            // holds no graph.
            const bool step = p.contains(QStringLiteral("/recording/")) && !p.endsWith(QStringLiteral("/recording.json"));
            if ((p.endsWith(".json") || p.endsWith(".pt2")) && !p.endsWith("/torch2/summary.json") && !step)
                paths << p;
        }
        paths.sort();
        QVERIFY(paths.size() > 50);
        for (const QString &p : paths)
            QTest::newRow(qPrintable(QFileInfo(p).fileName())) << p;
    }
    void corpus()
    {
        QFETCH(QString, path);
        auto file = loadGraphFile(path.toStdString());
        if (!file.ok() && QFileInfo(path).fileName().contains(QRegularExpression("bomb|broken|no_program"))) {
            // The deliberately broken .pt2 fixtures must fail with a located message (details: tst_export_parser).
            QVERIFY(file.error().toString().find(QFileInfo(path).fileName().toStdString()) != std::string::npos);
            return;
        }
        QVERIFY2(file.ok(), file.ok() ? "" : file.error().toString().c_str());

        // fxscope JSON: lossless, and stable when written again.
        std::string json = writeFxscopeJson(file.value());
        auto back = parseFxscopeJson(json, "roundtrip.json");
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().toString().c_str());
        QCOMPARE(back->graphs.size(), file->graphs.size());
        for (size_t i = 0; i < file->graphs.size(); ++i) {
            QVERIFY(lint(*file->graphs[i].graph).empty());
            QCOMPARE(back->graphs[i].name, file->graphs[i].name);
            QCOMPARE(printCanonical(*back->graphs[i].graph), printCanonical(*file->graphs[i].graph));
        }
        back->format = file->format; // "source_format" is informational: the loader sets the format
        QCOMPARE(writeFxscopeJson(back.value()), json);

        // Readable Python written by fxscope reads back to the same graph.
        for (const auto &named : file->graphs) {
            std::string code = writeReadable(*named.graph);
            auto again = parseReadable(code, "roundtrip.py");
            QVERIFY2(again.ok(), again.ok() ? "" : (again.error().toString() + "\n" + code.substr(0, 2000)).c_str());
            QCOMPARE(again->graphs.size(), size_t(1));
            QVERIFY(lint(*again->graphs[0].graph).empty());
            QCOMPARE(readableCore(*again->graphs[0].graph), readableCore(*named.graph));
        }
    }
};

QTEST_GUILESS_MAIN(TestRoundTrip)
#include "tst_roundtrip.moc"
