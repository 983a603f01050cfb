#include "util/json.h"

#include <QtTest>

#include <cmath>

using namespace fxs;

class TestJson : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void roundTrip_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("object order kept") << R"({"b":1,"a":[true,false,null],"c":"x\ny"})";
        QTest::newRow("nested") << R"([[[[1]]],{"k":{"k":{}}},[]])";
        QTest::newRow("floats") << R"([0.1,1e-05,-2.5,100000.0,1e+16,3.0])";
        QTest::newRow("big int") << R"([9223372036854775807,-9223372036854775808])";
        QTest::newRow("unicode") << R"(["\u00e9\ud83d\ude00"])";
    }
    void roundTrip()
    {
        QFETCH(QString, text);
        auto parsed = Json::parse(text.toStdString());
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().toString().c_str());
        auto again = Json::parse(parsed->dump());
        QVERIFY(again.ok());
        QVERIFY(again.value() == parsed.value());
        QCOMPARE(Json::parse(parsed->dump(2))->dump(), parsed->dump());
    }

    void intAndFloatStayDistinct()
    {
        auto j = Json::parse("[1, 1.0]");
        QVERIFY(j->items()[0].isInt());
        QVERIFY(j->items()[1].isFloat());
        QCOMPARE(j->dump(), std::string("[1,1.0]"));
    }

    void nonFiniteFloats()
    {
        auto j = Json::parse(R"([NaN, Infinity, -Infinity])");
        QVERIFY(j.ok());
        QVERIFY(std::isnan(j->items()[0].toDouble()));
        QCOMPARE(j->items()[1].toDouble(), HUGE_VAL);
        QCOMPARE(j->items()[2].toDouble(), -HUGE_VAL);
        QCOMPARE(Json(HUGE_VAL).dump(), std::string("\"Infinity\""));
    }

    void formatDoubleLikePython_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("python");
        QTest::newRow("tenth") << 0.1 << "0.1";
        QTest::newRow("eps") << 1e-05 << "1e-05";
        QTest::newRow("small fixed") << 0.0001 << "0.0001";
        QTest::newRow("large fixed") << 100000.0 << "100000.0";
        QTest::newRow("limit") << 1e16 << "1e+16";
        QTest::newRow("negative") << -3.4028234663852886e+38 << "-3.4028234663852886e+38";
        QTest::newRow("sqrt half") << 0.7071067811865476 << "0.7071067811865476";
        QTest::newRow("one") << 1.0 << "1.0";
        QTest::newRow("mantissa") << 1.5e-07 << "1.5e-07";
    }
    void formatDoubleLikePython()
    {
        QFETCH(double, value);
        QFETCH(QString, python);
        QCOMPARE(QString::fromStdString(formatDouble(value)), python);
    }

    void errorsNameLineAndColumn_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("missing comma") << "{\n  \"a\": 1\n  \"b\": 2}"
                                       << "f.json:3:3: expected ',' or '}' in object, found '\"'";
        QTest::newRow("truncated") << "[1, 2"
                                   << "f.json:1:6: expected ',' or ']' in array, found end of input";
        QTest::newRow("bad literal") << "[tru]"
                                     << "f.json:1:2: expected a JSON value, found 't'";
        QTest::newRow("trailing") << "{} x"
                                  << "f.json:1:4: expected end of JSON, found 'x'";
        QTest::newRow("unterminated string") << "\"abc"
                                             << "f.json:1:5: expected '\"' closing the string, found end of input";
        QTest::newRow("binary") << QString::fromLatin1("\x01\x02")
                                << "f.json:1:1: expected a JSON value, found byte 0x01";
    }
    void errorsNameLineAndColumn()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        auto j = Json::parse(text.toStdString(), "f.json");
        QVERIFY(!j.ok());
        QCOMPARE(QString::fromStdString(j.error().toString()), expected);
    }

    void deepNestingIsAnErrorNotACrash()
    {
        std::string deep(1000000, '[');
        auto j = Json::parse(deep, "deep.json");
        QVERIFY(!j.ok());
        QVERIFY(j.error().message.find("nested deeper") != std::string::npos);
    }

    void offsetsLocateValues()
    {
        auto j = Json::parse("{\"a\": [1, {\"b\": 2}]}");
        const Json &inner = j.value()["a"].items()[1];
        QCOMPARE(inner.offset(), size_t(10));
        QCOMPARE(inner["b"].offset(), size_t(16));
    }
};

QTEST_GUILESS_MAIN(TestJson)
#include "tst_json.moc"
