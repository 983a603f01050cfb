// The sandboxed Python subset of pattern files: semantics (data-driven, each row checked against what CPython
// prints), errors at FILE:LINE:COL naming the construct, and the sandbox bounds (steps, depth, memory).

#include "patterns/python/py_interpreter.h"

#include <QtTest>

using namespace fxs;

namespace {

// Runs `source` and returns repr(result), or the error text.
std::string runProgram(const std::string &source, bool *ok = nullptr)
{
    auto module = PyModule::parse(source, "t.py");
    if (ok)
        *ok = false;
    if (!module)
        return module.error().toString();
    PyInterpreter interp(module.value(), nullptr);
    auto st = interp.run();
    if (!st)
        return st.error().toString();
    if (ok)
        *ok = true;
    auto it = interp.globals().find("result");
    return it == interp.globals().end() ? std::string("<no result>") : pyRepr(it->second);
}

} // namespace

class TestPythonSubset : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void semantics_data();
    void semantics();
    void errors_data();
    void errors();
    void stepBound();
    void recursionBound();
    void memoryBound();
    void traceRecordsValues();
};

void TestPythonSubset::semantics_data()
{
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("expected");
    auto row = [](const char *name, const char *src, const char *exp) { QTest::newRow(name) << src << exp; };
    row("classes",
        "class Base:\n    def hello(self):\n        return 'base ' + self.name\nclass Counter(Base):\n    start = 10\n"
        "    def __init__(self, name, step=1):\n        self.name = name\n        self.n = self.start\n"
        "        self.step = step\n    def bump(self):\n        self.n = self.n + self.step\n        return self.n\n"
        "c = Counter('c', step=5)\nc.bump()\nresult = (c.bump(), c.hello(), Counter.start, c.name)",
        "(20, 'base c', 10, 'c')");
    row("dict update", "d = {'a': 1}\nd.update({'b': 2, 'a': 0})\nd.update(c=3)\nresult = d",
        "{'a': 0, 'b': 2, 'c': 3}");
    row("dataclass",
        "from dataclasses import dataclass\n@dataclass\nclass Info:\n    op: str\n    mapping: dict\n    n: int = 3\n"
        "a = Info('x', {0: 0})\nb = Info(op='y', mapping={}, n=5)\nresult = (a.op, a.mapping, a.n, b.op, b.n)",
        "('x', {0: 0}, 3, 'y', 5)");
    row("try except else finally",
        "def f(d):\n    try:\n        return d['x']\n    except KeyError as e:\n        return 'missing ' + str(e)\n"
        "    finally:\n        pass\nout = []\ntry:\n    out.append(1)\nexcept Exception:\n    out.append(2)\n"
        "else:\n    out.append(3)\nfinally:\n    out.append(4)\ndef g(l):\n    try:\n        return l[5]\n"
        "    except (KeyError, IndexError):\n        return 'none'\ndef h():\n    for i in range(3):\n        try:\n"
        "            if i == 1:\n                break\n        finally:\n            out.append(i)\n    return out\n"
        "result = (f({'x': 1}), f({}), out, g([1]), h())",
        "(1, \"missing 'x'\", [1, 3, 4, 0, 1], 'none', [1, 3, 4, 0, 1])");
    // f-strings: expected values are what CPython 3.11 prints for the same source.
    row("f-string fields",
        "x = 4096\nname = 'c'\nresult = f\"{name!r} {x} {x:>8} {x / 7168:.3f} {{lit}} {x=} {[1, 2]} {x:,} {x:#x} "
        "{3.5:08.2f} {'ab':^6}| {-2.5:+.1e} {0.25:.0%} {True} {x:_b}\"",
        "\"'c' 4096     4096 0.571 {lit} x=4096 [1, 2] 4,096 0x1000 00003.50   ab  | -2.5e+00 25% True "
        "1_0000_0000_0000\"");
    row("f-string nested spec and concatenation",
        "w = 6\nx = 4096\nresult = 'a' f\"{1:{w}d}\" \"b\" f'{\"q\"!s}{3.0}{1e-06}{ x * 2 }'",
        "'a     1bq3.01e-068192'");
    row("arith", "result = (7 // 2, -7 // 2, -7 % 3, 7 / 2, 2 ** 10, 1 + 2.5)", "(3, -4, 2, 3.5, 1024, 3.5)");
    row("compare chain", "result = (1 < 2 < 3, 1 < 2 > 5, 1 == 1.0, 'a' < 'b', [1, 2] < [1, 3])",
        "(True, False, True, True, True)");
    row("bool ops return operands", "result = (0 or 'x', 3 and 4, None or 0, not [])", "('x', 4, 0, True)");
    row("tuple unpack", "a, (b, c), *d = 1, (2, 3), 4, 5\nresult = (a, b, c, d)", "(1, 2, 3, [4, 5])");
    row("augassign", "x = 1\nx += 2\nx *= 3\nl = [1]\nm = l\nl += [2]\nresult = (x, m)", "(9, [1, 2])");
    row("if elif else",
        "def f(x):\n    if x < 0:\n        return 'neg'\n    elif x == 0:\n        return 'zero'\n"
        "    else:\n        return 'pos'\nresult = [f(-1), f(0), f(5)]",
        "['neg', 'zero', 'pos']");
    row("for break continue else",
        "out = []\nfor i in range(10):\n    if i % 2:\n        continue\n    if i > 6:\n"
        "        break\n    out.append(i)\nelse:\n    out.append('no')\nresult = out",
        "[0, 2, 4, 6]");
    row("defaults nested closure",
        "def outer(a, b=10):\n    def inner(c):\n        return a + b + c\n    return inner(1)\n"
        "result = (outer(1), outer(1, b=2))",
        "(12, 4)");
    row("star args kwargs", "def f(*args, **kw):\n    return (args, kw)\nresult = f(1, *[2, 3], x=4, **{'y': 5})",
        "((1, 2, 3), {'x': 4, 'y': 5})");
    row("comprehensions",
        "result = ([x * x for x in range(5) if x % 2 == 0], {k: v for k, v in zip('ab', [1, 2])}, "
        "any(x > 3 for x in [1, 5]), all(x for x in []))",
        "([0, 4, 16], {'a': 1, 'b': 2}, True, True)");
    row("builtins",
        "result = (len([1, 2]), str(3), int('42'), float(2), min(3, 1, 2), max([4, 9]), "
        "list(enumerate('ab')), isinstance(3, (str, int)), hasattr([], 'append'), getattr(1, 'x', 'd'))",
        "(2, '3', 42, 2.0, 1, 9, [(0, 'a'), (1, 'b')], True, True, 'd')");
    row("subscript slice", "l = [0, 1, 2, 3, 4]\nresult = (l[-1], l[1:3], l[::-1], l[:-2], 'abc'[1])",
        "(4, [1, 2], [4, 3, 2, 1, 0], [0, 1, 2], 'b')");
    row("dict get and in", "d = {'val': 1}\nresult = (d.get('val'), d.get('x'), 'val' in d, 'x' not in d, d['val'])",
        "(1, None, True, True, 1)");
    row("conditional expr", "result = ['a' if x else 'b' for x in (0, 1)]", "['b', 'a']");
    row("imports opaque with",
        "import torch\nfrom torch._subclasses.fake_tensor import FakeTensorMode\n"
        "with FakeTensorMode():\n    result = torch.float16 == torch.float16",
        "True");
    row("while", "i = 0\nwhile i < 5:\n    i += 2\nresult = i", "6");
    row("string percent", "result = 'a %s b %d' % ('x', 3)", "'a x b 3'");
}

void TestPythonSubset::semantics()
{
    QFETCH(QString, source);
    QFETCH(QString, expected);
    bool ok = false;
    std::string got = runProgram(source.toStdString(), &ok);
    QVERIFY2(ok, got.c_str());
    QCOMPARE(QString::fromStdString(got), expected);
}

void TestPythonSubset::errors_data()
{
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("expected");
    auto row = [](const char *name, const char *src, const char *exp) { QTest::newRow(name) << src << exp; };
    row("class decorator", "import abc\n@abc.final\nclass A:\n    x: int\n",
        "t.py:2:2: SubsetError: the class decorator @abc.final is outside fxscope's Python subset");
    row("dataclass missing field", "from dataclasses import dataclass\n@dataclass\nclass A:\n    x: int\na = A()\n",
        "t.py:5:5: TypeError: A() missing 1 required positional argument: 'x'");
    row("attribute of a module", "import torch\ntorch.x = 1\n", "t.py:2:1: SubsetError: assigning to an attribute");
    row("uncaught type", "try:\n    x = 1 / 0\nexcept KeyError:\n    x = 2\n",
        "t.py:2:9: ZeroDivisionError: division by zero");
    row("sandbox limit not catchable", "def f():\n    return f()\ntry:\n    f()\nexcept Exception:\n    pass\n",
        "t.py:2:12: SandboxLimit: calls nest more than 64 levels deep");
    row("subset error not catchable", "def g():\n    return lambda: 1\ntry:\n    g()\nexcept Exception:\n    pass\n",
        "t.py:2:12: SubsetError: a lambda is outside fxscope's Python subset");
    row("lambda", "f = 1\nlambda x: x\n", "t.py:2:1: a lambda is outside");
    row("global", "x = 1\nglobal x\n", "t.py:2:1: 'global' is outside");
    row("global in a def, when run", "def f():\n    global x\nf()\n", "t.py:2:5: SubsetError: 'global' is outside");
    row("decorator", "import abc\n@abc.abstractmethod\ndef f():\n    pass\n",
        "t.py:2:2: SubsetError: the decorator @abc.abstractmethod is outside fxscope's Python subset");
    row("name error", "x = 1\ny = x + zz\n", "t.py:2:9: NameError: name 'zz' is not defined");
    row("type error", "x = 1 + 'a'\n", "t.py:1:5: TypeError: unsupported operand type(s) for +: 'int' and 'str'");
    row("index error", "l = []\nx = l[3]\n", "t.py:2:5: IndexError: list index 3 out of range");
    row("unpack", "a, b = [1, 2, 3]\n", "t.py:1:1: ValueError: too many values to unpack (expected 2, got 3)");
    row("open", "f = open('/etc/passwd')\n", "t.py:1:5: SandboxError: open() is not available");
    row("set display", "s = {1, 2}\n", "t.py:1:5: SubsetError: set displays are outside the subset");
    row("syntax", "x = (1,\n", "t.py:");
    row("f-string empty field", "x = 1\ny = f'a {} b'\n", "t.py:2:9: expected an expression inside the f-string's {}");
    row("f-string bad conversion", "x = 1\ny = f'{x!z}'\n", "t.py:2:9: expected !r, !s or !a");
    row("f-string lone brace", "y = f'a } b'\n", "t.py:1:9: expected '}}' for a literal brace");
    row("f-string field syntax", "y = f'{1 +}'\n", "t.py:1:");
    row("f-string bad spec", "y = f'{1:q}'\n",
        "t.py:1:7: ValueError: Unknown format code 'q' for object of type 'int'");
}

void TestPythonSubset::errors()
{
    QFETCH(QString, source);
    QFETCH(QString, expected);
    bool ok = true;
    std::string got = runProgram(source.toStdString(), &ok);
    QVERIFY(!ok);
    QVERIFY2(QString::fromStdString(got).startsWith(expected), got.c_str());
}

void TestPythonSubset::stepBound()
{
    bool ok = true;
    std::string got = runProgram("i = 0\nwhile True:\n    i += 1\n", &ok);
    QVERIFY(!ok);
    QVERIFY2(got.find("SandboxLimit: more than 2000000 steps") != std::string::npos, got.c_str());
    QVERIFY2(got.rfind("t.py:", 0) == 0, got.c_str());
}

void TestPythonSubset::recursionBound()
{
    bool ok = true;
    std::string got = runProgram("def f(n):\n    return f(n + 1)\nf(0)\n", &ok);
    QVERIFY(!ok);
    QVERIFY2(got.find("SandboxLimit: calls nest more than 64 levels") != std::string::npos, got.c_str());
}

void TestPythonSubset::memoryBound()
{
    bool ok = true;
    std::string got = runProgram("x = [0] * 100000000\n", &ok);
    QVERIFY(!ok);
    QVERIFY2(
        got.find("SandboxLimit") != std::string::npos && got.find("memory bound") != std::string::npos, got.c_str());
    got = runProgram("x = []\nfor i in range(100):\n    x = x + list(range(100000))\n", &ok);
    QVERIFY(!ok);
    QVERIFY2(got.find("SandboxLimit") != std::string::npos, got.c_str());
    got = runProgram("x = list(range(10 ** 12))\n", &ok);
    QVERIFY(!ok);
    QVERIFY2(got.find("SandboxLimit") != std::string::npos, got.c_str());
}

void TestPythonSubset::traceRecordsValues()
{
    auto module = PyModule::parse("def check(s):\n    a_shape = s\n    if a_shape is None:\n        return False\n"
                                  "    return a_shape[-1] == 7168\n",
        "t.py");
    QVERIFY(module);
    PyInterpreter interp(module.value(), nullptr);
    QVERIFY(interp.run());
    PyTrace trace;
    PyCallArgs args;
    args.args.push_back(PyValue::ofTuple({PyValue::ofInt(1), PyValue::ofInt(4096)}));
    auto r = interp.callFunction(interp.globals()["check"], args, &trace);
    QVERIFY(r);
    QVERIFY(!pyTruthy(r.value()));
    QCOMPARE(trace.lines.size(), size_t(3));
    QCOMPARE(QString::fromStdString(trace.lines[0]), QString("line 2: a_shape = s → (1, 4096)"));
    QCOMPARE(
        QString::fromStdString(trace.lines[1]), QString("line 3: if a_shape is None → False (a_shape = (1, 4096))"));
    QCOMPARE(QString::fromStdString(trace.lines[2]),
        QString("line 5: return a_shape[-1] == 7168 → False (a_shape[-1] = 4096)"));
}

QTEST_GUILESS_MAIN(TestPythonSubset)
#include "tst_python_subset.moc"
