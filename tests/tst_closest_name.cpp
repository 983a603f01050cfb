// closestName: the "did you mean ...?" of the CLI's unknown pass, pattern, graph and command errors.

#include "util/closest_name.h"

#include <QtTest>

using namespace fxs;

class TestClosestName : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void closest_data();
    void closest();
    void longInputStaysCheap();
};

void TestClosestName::closest_data()
{
    QTest::addColumn<QString>("typed");
    QTest::addColumn<QString>("expected"); // empty: nothing is close
    QTest::newRow("part of a name") << "noop_views"
                                    << "remove_noop_views";
    QTest::newRow("one letter off") << "rms_nrm"
                                    << "rms_norm";
    QTest::newRow("case") << "Swiglu"
                          << "swiglu";
    QTest::newRow("longer than the name") << "remove_detach_pass"
                                          << "remove_detach";
    QTest::newRow("several contain it: the nearest") << "norm"
                                                     << "rms_norm";
    QTest::newRow("too far") << "xyz"
                             << "";
    QTest::newRow("too short to contain") << "e"
                                          << "";
    QTest::newRow("empty") << ""
                           << "";
    QTest::newRow("the name itself") << "swiglu"
                                     << "";
}

void TestClosestName::closest()
{
    QFETCH(QString, typed);
    QFETCH(QString, expected);
    const std::vector<std::string> known
        = {"dce", "cse", "remove_noop_views", "remove_detach", "rms_norm", "rms_norm_cast", "layer_norm", "swiglu"};
    QCOMPARE(QString::fromStdString(closestName(typed.toStdString(), known)), expected);
    QCOMPARE(QString::fromStdString(didYouMean(typed.toStdString(), known)),
        expected.isEmpty() ? QString() : QStringLiteral("; did you mean '%1'?").arg(expected));
}

// A megabyte typed by mistake (a file path passed as a name): linear memory, an answer, no crash.
void TestClosestName::longInputStaysCheap()
{
    const std::string typed(1 << 20, 'x');
    QCOMPARE(QString::fromStdString(closestName(typed, {"dce", "cse", "inline"})), QString());
}

QTEST_GUILESS_MAIN(TestClosestName)
#include "tst_closest_name.moc"
