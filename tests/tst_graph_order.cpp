// Graph's node order under edits: a seeded random mix of inserts (many at one spot, so order keys run out and get
// relabelled), erases and run reorders, checked after every edit against a plain list kept alongside: nodes(),
// index(), precedes(), next()/prev(), first()/last() and lint all agree with it.

#include "ir/graph.h"
#include "ir/lint.h"

#include <QtTest>

#include <algorithm>
#include <random>

using namespace fxs;

class TestGraphOrder : public QObject {
    Q_OBJECT

private:
    static void compare(const Graph &g, const std::vector<Node *> &model)
    {
        QCOMPARE(g.size(), model.size());
        size_t i = 0;
        for (const Node *n = g.first(); n; n = Graph::next(n), ++i) {
            QVERIFY(i < model.size() && model[i] == n);
            QCOMPARE(Graph::prev(n), i ? model[i - 1] : nullptr);
            if (i)
                QVERIFY(Graph::precedes(model[i - 1], n) && !Graph::precedes(n, model[i - 1]));
        }
        QCOMPARE(i, model.size());
        QCOMPARE(g.last(), model.empty() ? nullptr : model.back());
        const auto &nodes = g.nodes();
        for (size_t k = 0; k < model.size(); ++k) {
            QCOMPARE(nodes[k].get(), model[k]);
            QCOMPARE(model[k]->index(), k);
        }
    }

private Q_SLOTS:
    void randomEditsKeepOrder()
    {
        Graph g;
        std::vector<Node *> model;
        model.push_back(g.append(OpKind::Placeholder, "x", "x"));
        model.push_back(g.append(OpKind::Output, "output", "output", {Argument::ofNode(model[0])}));
        std::mt19937 rng(7);
        int counter = 0, reorders = 0, erases = 0;
        for (int step = 0; step < 3000; ++step) {
            const int roll = int(rng() % 10);
            if (roll < 5 || model.size() < 4) {
                // Insert before a node in the middle; every third one before the output, repeatedly at one spot.
                size_t at = roll % 3 == 0 ? model.size() - 1 : 1 + rng() % (model.size() - 1);
                Node *input = model[at - 1];
                Node *n = g.insertBefore(model[at], OpKind::CallFunction, "n" + std::to_string(counter++),
                    "aten.relu.default", {Argument::ofNode(input)});
                model.insert(model.begin() + std::ptrdiff_t(at), n);
            } else if (roll < 8) {
                // Erase a node without users (never the placeholder or the output).
                std::vector<size_t> free;
                for (size_t k = 1; k + 1 < model.size(); ++k)
                    if (model[k]->users().empty())
                        free.push_back(k);
                if (free.empty())
                    continue;
                size_t k = free[rng() % free.size()];
                QVERIFY(g.erase(model[k]));
                ++erases;
                model.erase(model.begin() + std::ptrdiff_t(k));
            } else {
                // Reverse a run of up to 6 nodes when none of them uses another (so the graph stays valid).
                size_t start = 1 + rng() % (model.size() - 2);
                size_t len = std::min<size_t>(1 + rng() % 6, model.size() - 1 - start);
                std::vector<Node *> window(
                    model.begin() + std::ptrdiff_t(start), model.begin() + std::ptrdiff_t(start + len));
                bool independent = true;
                for (Node *a : window)
                    for (Node *in : a->inputNodes())
                        independent = independent && std::find(window.begin(), window.end(), in) == window.end();
                if (!independent)
                    continue;
                std::reverse(window.begin(), window.end());
                QVERIFY(g.reorderRun(window));
                ++reorders;
                std::copy(window.begin(), window.end(), model.begin() + std::ptrdiff_t(start));
            }
            // Check the order through the O(1) walk every time, the rebuilt vector every 50 edits (as readers do).
            if (step % 50 == 0) {
                compare(g, model);
                QVERIFY(lint(g).empty());
            } else {
                for (size_t k = 1; k < model.size(); ++k)
                    QVERIFY(Graph::precedes(model[k - 1], model[k]) && Graph::next(model[k - 1]) == model[k]);
            }
        }
        compare(g, model);
        QVERIFY2(reorders > 100 && erases > 100, (std::to_string(reorders) + " " + std::to_string(erases)).c_str());
        // A permutation that is not a run of consecutive nodes is refused and changes nothing.
        QVERIFY(model.size() > 4);
        QVERIFY(!g.reorderRun({model[3], model[1]}));
        compare(g, model);
        auto copy = g.clone();
        QCOMPARE(copy->size(), g.size());
        QCOMPARE(copy->last()->name(), std::string("output"));
    }

    // 20k insertions before one node: keys are relabelled locally, order and positions stay right.
    void manyInsertsAtOneSpot()
    {
        Graph g;
        Node *x = g.append(OpKind::Placeholder, "x", "x");
        Node *out = g.append(OpKind::Output, "output", "output", {Argument::ofNode(x)});
        Node *prev = x;
        for (int i = 0; i < 20000; ++i)
            prev = g.insertBefore(
                out, OpKind::CallFunction, "n" + std::to_string(i), "aten.relu.default", {Argument::ofNode(prev)});
        QCOMPARE(g.size(), size_t(20002));
        QCOMPARE(g.find("n19999")->index(), size_t(20000));
        QCOMPARE(g.nodes()[1]->name(), std::string("n0"));
        QVERIFY(Graph::precedes(g.find("n12345"), g.find("n12346")));
        QVERIFY(lint(g).empty());
    }
};

QTEST_GUILESS_MAIN(TestGraphOrder)
#include "tst_graph_order.moc"
