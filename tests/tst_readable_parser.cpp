#include "io/python_tokenizer.h"
#include "io/readable_parser.h"
#include "ir/lint.h"

#include <QtTest>

#include <cmath>
#include <set>

using namespace fxs;

namespace {

std::string readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QByteArray bytes = f.readAll();
    return std::string(bytes.constData(), size_t(bytes.size()));
}

QString corpusPath(const char *name)
{
    return QStringLiteral(FXSCOPE_CORPUS_DIR "/readable/") + QString::fromUtf8(name);
}

// Parses a corpus file and returns its only top-level graph, or nullptr (with a test failure message).
struct Loaded {
    Result<GraphFile> file = Error{};
    Graph *graph = nullptr;
};

Loaded loadCorpus(const char *name)
{
    Loaded l;
    std::string text = readFile(corpusPath(name));
    l.file = parseReadable(text, name);
    if (l.file && l.file->graphs.size() == 1)
        l.graph = l.file->graphs[0].graph.get();
    return l;
}

Result<GraphFile> parseText(const std::string &text)
{
    return parseReadable(text, "test.py");
}

Node *node(const Graph &g, const char *name)
{
    return g.find(name);
}

std::vector<std::string> names(const std::vector<Node *> &nodes)
{
    std::vector<std::string> out;
    for (Node *n : nodes)
        out.push_back(n->name());
    return out;
}

} // namespace

class TestReadableParser : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Node counts of every readable corpus file, against counts made independently with Python's `ast` module:
    //   placeholders = the names unpacked from `... = fx_pytree.tree_flatten_spec(...)` when present, else
    //                  forward's parameters minus `self`;
    //   + 1 per Assign / AnnAssign in forward's body whose value is neither None (`x = y = None` clean-ups),
    //     nor a bare name (`l_x_ = L_x_` aliases, the `name = x` half of `x += y;  name = x`), nor the
    //     tree_flatten_spec call;
    //   + 1 per AugAssign (`x += y` is one operator.iadd node);
    //   + 1 for `return` (the output node).
    // Before ast.parse, `class <lambda>(` became `class _lambda_(`, unquoted PyTorch 2.0 annotations were quoted,
    // and a print(ep) dump was reduced to the indented block under `ExportedProgram:`. The same method is
    // automated for the whole corpus in tests/scripts/corpus_counts.py.
    void corpusNodeCounts_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("nodes");
        QTest::addColumn<QString>("graphName");
        QTest::addColumn<int>("subgraphs");
        const struct {
            const char *file;
            int nodes;
            const char *name;
            int subgraphs;
        } rows[] = {
            {"depyf__aot_eager_dynamic_with_grad__compiled_fn_3_backward_graph.py", 24, "GraphModule", 0},
            {"depyf__aot_eager_dynamic_with_grad__compiled_fn_3_dynamo_graph.py", 11, "GraphModule", 0},
            {"depyf__aot_eager_dynamic_with_grad__compiled_fn_3_forward_graph.py", 11, "GraphModule", 0},
            {"depyf__aot_eager_dynamic_with_grad__compiled_fn_3_joint_graph.py", 26, "inner_f", 0},
            {"graphnet__shanjiang7_fork__ms-marco-MiniLM-L2-v2__dynamo_graph_black_formatted.py", 110, "GraphModule",
                0},
            {"learn_torch_compile__hf_BertForMaskedLM_training_cpu__aot_backward_graph.py", 2009, "forward", 0},
            {"learn_torch_compile__hf_BertForMaskedLM_training_cpu__aot_forward_graph.py", 1499, "forward", 0},
            {"learn_torch_compile__hf_BertForMaskedLM_training_cpu__aot_joint_graph.py", 3216, "forward", 0},
            {"learn_torch_compile__hf_BertForMaskedLM_training_cpu__dynamo_captured_graph.py", 375, "forward", 0},
            {"learn_torch_compile__hf_GPTJForCausalLM_inference_cpu__dynamo_captured_graph.py", 2290, "forward", 0},
            {"learn_torch_compile__hf_OPTForCausalLM_inference_cpu__aot_forward_graph.py", 1197, "forward", 0},
            {"learn_torch_compile__tb_hf_GPT2_inference_cpu__after_post_grad.py", 1144, "forward", 0},
            {"learn_torch_compile__tb_hf_T5_training_cpu__aot_joint_graph.py", 3859, "forward", 0},
            {"learn_torch_compile__tb_resnet50_inference_cpu__aot_forward_graph.py", 1400, "forward", 0},
            {"learn_torch_compile__tb_resnet50_inference_cpu__dynamo_captured_graph.py", 177, "forward", 0},
            {"learn_torch_compile__tb_resnet50_training_cpu__aot_backward_graph.py", 1491, "forward", 0},
            {"learn_torch_compile__timm_hrnet_w18_training_cuda__aot_joint_graph.py", 23444, "forward", 0},
            {"pytorch_test_export__cond_branches_return_constant_int__print_readable_normalized.py", 14, "GraphModule",
                2},
            {"pytorch_test_export__unflatten_closure__graph_module_code.py", 5, "forward", 0},
            {"tlparse__cache_hit_miss__1-0__aot_inference_graph_flex_attention_hop.py", 16, "<lambda>", 2},
            {"tlparse__cache_hit_miss__1-0__dynamo_output_graph_flex_attention_hop.py", 16, "GraphModule", 2},
            {"tlparse__cache_hit_miss__1-0__inductor_post_grad_graph_flex_attention_hop.py", 16, "<lambda>", 2},
            {"tlparse__export_log__exported_program_print.txt", 9, "GraphModule", 0},
            {"tlparse__multi_rank_runtime_r0__0-1__after_post_grad_graph.py", 37, "<lambda>", 0},
            {"tlparse__multi_rank_runtime_r0__0-1__aot_inference_graph.py", 39, "<lambda>", 0},
            {"tlparse__multi_rank_runtime_r0__0-1__dynamo_output_graph.py", 23, "GraphModule", 0},
            {"tlparse__provenance_jit_debug_handle__aot_backward_graph.py", 14, "GraphModule", 0},
            {"tlparse__provenance_jit_debug_handle__aot_forward_graph.py", 19, "GraphModule", 0},
            {"tlparse__provenance_jit_debug_handle__aot_joint_graph.py", 39, "inner_f", 0},
            {"tlparse__provenance_jit_debug_handle__dynamo_output_graph.py", 13, "GraphModule", 0},
            {"tlparse__simple_log__aot_inference_graph.py", 14, "<lambda>", 0},
            {"tlparse__simple_log__dynamo_output_graph.py", 5, "GraphModule", 0},
            {"unknown_repo__pt2_0_era_aot_forward_deberta_embeddings_unquoted_annotations.py", 25, "GraphModule", 0},
            {"unknown_repo__pt2_0_era_aot_forward_timm_loss_unquoted_annotations.py", 15, "GraphModule", 0},
        };
        for (const auto &r : rows)
            QTest::newRow(r.file) << QString::fromUtf8(r.file) << r.nodes << QString::fromUtf8(r.name) << r.subgraphs;
    }

    void corpusNodeCounts()
    {
        QFETCH(QString, file);
        QFETCH(int, nodes);
        QFETCH(QString, graphName);
        QFETCH(int, subgraphs);
        std::string name = file.toStdString();
        auto l = loadCorpus(name.c_str());
        QVERIFY2(l.file.ok(), l.file.ok() ? "" : l.file.error().toString().c_str());
        QCOMPARE(l.file->format, std::string("readable"));
        QCOMPARE(int(l.file->graphs.size()), 1);
        QCOMPARE(QString::fromStdString(l.file->graphs[0].name), graphName);
        QCOMPARE(int(l.graph->size()), nodes);
        QCOMPARE(int(l.graph->subgraphs().size()), subgraphs);
        auto problems = lint(*l.graph);
        QVERIFY2(problems.empty(), problems.empty() ? "" : problems[0].c_str());
        // Every node knows the line it was read from, in increasing order apart from placeholders that share
        // the def line and the output.
        int previous = 0;
        for (const auto &n : l.graph->nodes()) {
            QVERIFY2(n->meta().dumpLine > 0, n->name().c_str());
            QVERIFY2(n->meta().dumpLine >= previous, n->name().c_str());
            previous = n->meta().dumpLine;
        }
        QCOMPARE(l.graph->nodes().back()->op(), OpKind::Output);
    }

    // The table above must list every readable corpus file, so a new sample cannot go unchecked.
    void corpusTableIsComplete()
    {
        QDir dir(QStringLiteral(FXSCOPE_CORPUS_DIR "/readable"));
        const QStringList files = dir.entryList(QDir::Files);
        QVERIFY(!files.isEmpty());
        QCOMPARE(files.size(), 34);
    }

    // `x[idx] = v;  setitem = x` is how torch.fx prints operator.setitem (Hugging Face MBart's shift_labels, issue
    // 17): a node named by the statement after it, with no users; later uses of x still mean x. Without that
    // statement it is named setitem, setitem_1, ... as FX names it.
    void setitemStatements()
    {
        auto file = parseText(
            "class GraphModule(torch.nn.Module):\n"
            "    def forward(self, L_labels_: \"i64[2, 8][8, 1]cpu\"):\n"
            "        l_labels_ = L_labels_\n"
            "        shift: \"i64[2, 8][8, 1]cpu\" = l_labels_.new_zeros((2, 8))\n"
            "        getitem: \"i64[2, 7][8, 1]cpu\" = l_labels_[(slice(None, None, None), slice(1, None, None))]\n"
            "        shift[(slice(None, None, None), slice(None, -1, None))] = getitem;  setitem = shift;  getitem = setitem = None\n"
            "        shift[(Ellipsis, -1)] = -100\n"
            "        return (shift,)\n");
        QVERIFY2(file.ok(), file.ok() ? "" : file.error().toString().c_str());
        const Graph &g = *file->graphs[0].graph;
        QVERIFY(lint(g).empty());
        Node *shift = node(g, "shift");
        Node *setitem = node(g, "setitem");
        QCOMPARE(setitem->target(), std::string("operator.setitem"));
        QCOMPARE(setitem->args()[0].node(), shift);
        QCOMPARE(setitem->args()[1].toFxText(), std::string("(slice(None, None, None), slice(None, -1, None))"));
        QCOMPARE(setitem->args()[2].node(), node(g, "getitem"));
        QVERIFY(setitem->users().empty());
        Node *second = node(g, "setitem_1");
        QCOMPARE(second->args()[1].toFxText(), std::string("(Ellipsis, -1)"));
        QCOMPARE(second->args()[2].toInt(), int64_t(-100));
        QCOMPARE(g.outputNode()->args()[0].toFxText(), std::string("(%shift,)"));
    }

    void dynamoGraphWithOperators()
    {
        auto l = loadCorpus("depyf__aot_eager_dynamic_with_grad__compiled_fn_3_dynamo_graph.py");
        QVERIFY(l.graph);
        const Graph &g = *l.graph;
        QCOMPARE(names(g.placeholders()), (std::vector<std::string>{"s97", "l_a_", "l_b_"}));
        Node *s97 = node(g, "s97");
        QCOMPARE(s97->target(), std::string("s97"));
        QVERIFY(s97->meta().val);
        QCOMPARE(s97->meta().val->kind, ValueMeta::Kind::SymInt);
        QCOMPARE(s97->meta().val->expr, std::string("s52"));
        // `l_a_ = L_a_` names the placeholder whose target is L_a_.
        Node *a = node(g, "l_a_");
        QCOMPARE(a->op(), OpKind::Placeholder);
        QCOMPARE(a->target(), std::string("L_a_"));
        QCOMPARE(a->meta().val->tensor.dtype, std::string("torch.float32"));
        QCOMPARE(a->meta().val->tensor.shape.size(), size_t(1));
        QCOMPARE(a->meta().val->tensor.shape[0].expr, std::string("s52"));
        QVERIFY(!node(g, "L_a_"));

        Node *abs1 = node(g, "abs_1");
        QCOMPARE(abs1->op(), OpKind::CallFunction);
        QCOMPARE(abs1->target(), std::string("torch.abs"));
        QCOMPARE(abs1->args().size(), size_t(1));
        QCOMPARE(abs1->args()[0].node(), a);
        QCOMPARE(abs1->meta().dumpLine, 10);
        QVERIFY(abs1->meta().source);
        QCOMPARE(abs1->meta().source->file,
            std::string("/Users/youkaichao/data/DeepLearning/depyf/tests/test_pytorch/test_pytorch.py"));
        QCOMPARE(abs1->meta().source->line, 13);
        QCOMPARE(abs1->meta().source->function, std::string("forward"));
        QCOMPARE(abs1->meta().source->code, std::string("x = a / (torch.abs(a) + 1)"));

        Node *add = node(g, "add");
        QCOMPARE(add->target(), std::string("operator.add"));
        QCOMPARE(add->args()[0].node(), abs1);
        QCOMPARE(add->args()[1], Argument::ofInt(1));
        QCOMPARE(node(g, "x")->target(), std::string("operator.truediv"));
        Node *mul = node(g, "mul");
        QCOMPARE(mul->target(), std::string("operator.mul"));
        QCOMPARE(mul->args()[1], Argument::ofInt(-1));
        QCOMPARE(mul->meta().source->line, 14);
        // x.sum() is a method call whose first argument is the receiver.
        Node *sum1 = node(g, "sum_1");
        QCOMPARE(sum1->op(), OpKind::CallMethod);
        QCOMPARE(sum1->target(), std::string("sum"));
        QCOMPARE(sum1->args().size(), size_t(1));
        QCOMPARE(sum1->args()[0].node(), node(g, "l_b_"));
        QCOMPARE(sum1->meta().val->tensor.shape.size(), size_t(0));

        Node *out = g.outputNode();
        QCOMPARE(out->name(), std::string("output"));
        QCOMPARE(out->target(), std::string("output"));
        QCOMPARE(out->args().size(), size_t(1));
        QCOMPARE(out->args()[0], Argument::tuple({Argument::ofNode(node(g, "mul_1"))}));
        QCOMPARE(names(node(g, "mul_1")->users()), (std::vector<std::string>{"output"}));
        QCOMPARE(names(a->users()), (std::vector<std::string>{"abs_1", "x"}));
    }

    void pytreeJointGraph()
    {
        auto l = loadCorpus("depyf__aot_eager_dynamic_with_grad__compiled_fn_3_joint_graph.py");
        QVERIFY(l.graph);
        const Graph &g = *l.graph;
        // forward(self, primals, tangents) takes nested inputs; the placeholders are the flattened names.
        QCOMPARE(
            names(g.placeholders()), (std::vector<std::string>{"primals_1", "primals_2", "primals_3", "tangents_1"}));
        QCOMPARE(node(g, "primals_1")->meta().val->kind, ValueMeta::Kind::SymInt);
        QCOMPARE(node(g, "primals_2")->meta().val->toAnnotation(), std::string("f32[s52]"));
        QCOMPARE(node(g, "tangents_1")->target(), std::string("tangents_1"));
        QVERIFY(!node(g, "primals") && !node(g, "tangents"));
        Node *expand = node(g, "expand");
        QCOMPARE(expand->args()[1], Argument::list({Argument::ofNode(node(g, "primals_1"))}));
        // return pytree.tree_unflatten([...], self._out_spec) returns the flat list.
        QCOMPARE(g.outputNode()->args()[0],
            Argument::list({Argument::ofNode(node(g, "mul_6")), Argument::none(), Argument::ofNode(node(g, "add_15")),
                Argument::ofNode(node(g, "add_14"))}));
    }

    void expandedDefinitionsWithDescriptors()
    {
        auto joint = loadCorpus("tlparse__provenance_jit_debug_handle__aot_joint_graph.py");
        QVERIFY(joint.graph);
        QCOMPARE(joint.graph->placeholders().size(), size_t(7));
        Node *tangent = node(*joint.graph, "tangents_1");
        QCOMPARE(tangent->meta().val->toAnnotation(), std::string("f32[8, 16][16, 1]cuda:0"));
        QCOMPARE(tangent->meta().dumpLine, 14);
        const Argument &ret = joint.graph->outputNode()->args()[0];
        QCOMPARE(ret.kind(), Argument::Kind::List);
        QCOMPARE(ret.items().size(), size_t(8));
        QCOMPARE(ret.items()[3].node(), node(*joint.graph, "view"));
        QVERIFY(ret.items()[4].isNone());
        Node *scalar = node(*joint.graph, "scalar_tensor");
        QCOMPARE(scalar->kwargs().size(), size_t(3));
        QCOMPARE(*scalar->kwarg("dtype"), Argument::ofText(Argument::Kind::Dtype, "torch.float32"));
        QCOMPARE(*scalar->kwarg("layout"), Argument::ofText(Argument::Kind::Layout, "torch.strided"));
        QCOMPARE(*scalar->kwarg("device"), Argument::ofText(Argument::Kind::Device, "cuda:0"));
        QCOMPARE(scalar->meta().val->toAnnotation(), std::string("f32[][]cuda:0"));

        auto backward = loadCorpus("tlparse__provenance_jit_debug_handle__aot_backward_graph.py");
        QVERIFY(backward.graph);
        QCOMPARE(names(backward.graph->placeholders()),
            (std::vector<std::string>{"primals_3", "sigmoid", "le", "tangents_1"}));
        QCOMPARE(node(*backward.graph, "le")->meta().val->tensor.dtype, std::string("torch.bool"));
        QCOMPARE(node(*backward.graph, "full_default")->args()[1], Argument::ofFloat(0.0));
        QCOMPARE(backward.graph->outputNode()->args()[0].kind(), Argument::Kind::Tuple);
        QCOMPARE(backward.graph->outputNode()->args()[0].items().size(), size_t(6));
    }

    void literalsAndKeywordArguments()
    {
        auto l = loadCorpus("tlparse__simple_log__aot_inference_graph.py");
        QVERIFY(l.graph);
        const Graph &g = *l.graph;
        Node *rand = node(g, "rand");
        QCOMPARE(rand->args()[0],
            Argument::list({Argument::ofInt(1), Argument::ofInt(320), Argument::ofInt(128), Argument::ofInt(128)}));
        QCOMPARE(*rand->kwarg("dtype"), Argument::ofText(Argument::Kind::Dtype, "torch.float32"));
        QCOMPARE(*rand->kwarg("device"), Argument::ofText(Argument::Kind::Device, "cuda:0"));
        QCOMPARE(*rand->kwarg("pin_memory"), Argument::ofBool(false));
        Node *clone = node(g, "clone");
        QCOMPARE(*clone->kwarg("memory_format"), Argument::ofText(Argument::Kind::MemoryFormat, "torch.channels_last"));
        QCOMPARE(clone->meta().val->tensor.stride.size(), size_t(4));
        QCOMPARE(clone->meta().val->tensor.stride[1].value, int64_t(1));
        QCOMPARE(clone->meta().val->tensor.device, std::string("cuda:0"));
        QCOMPARE(node(g, "mul_1")->args()[1], Argument::ofFloat(0.7071067811865476));
        QCOMPARE(node(g, "baz")->target(), std::string("torch.ops.test.baz.default"));
        QCOMPARE(node(g, "arg0_1")->meta().source, std::optional<SourceLocation>());
    }

    void flexAttentionSubgraphs()
    {
        auto l = loadCorpus("tlparse__cache_hit_miss__1-0__dynamo_output_graph_flex_attention_hop.py");
        QVERIFY(l.graph);
        const Graph &g = *l.graph;
        QCOMPARE(g.subgraphs().size(), size_t(2));
        QCOMPARE(g.subgraphs()[0].first, std::string("score_mod_0"));
        QCOMPARE(g.subgraphs()[1].first, std::string("mask_fn_0"));

        Node *scoreAttr = node(g, "score_mod_0");
        QCOMPARE(scoreAttr->op(), OpKind::GetAttr);
        QCOMPARE(scoreAttr->target(), std::string("score_mod_0"));
        Node *flex = node(g, "flex_attention");
        QCOMPARE(flex->target(), std::string("torch.ops.higher_order.flex_attention"));
        QCOMPARE(flex->args().size(), size_t(9));
        QCOMPARE(flex->args()[3].node(), scoreAttr);
        const Argument &blockMask = flex->args()[4];
        QCOMPARE(blockMask.kind(), Argument::Kind::Tuple);
        QCOMPARE(blockMask.items().size(), size_t(11));
        QCOMPARE(blockMask.items()[8], Argument::ofInt(128));
        QCOMPARE(blockMask.items()[10].node(), node(g, "mask_fn_0"));
        QCOMPARE(flex->args()[5], Argument::ofFloat(0.125));
        const Argument &options = flex->args()[6];
        QCOMPARE(options.kind(), Argument::Kind::Dict);
        QCOMPARE(options.keys(),
            (std::vector<std::string>{
                "PRESCALE_QK", "ROWS_GUARANTEED_SAFE", "BLOCKS_ARE_CONTIGUOUS", "OUTPUT_LOGSUMEXP"}));
        QCOMPARE(options.items()[3], Argument::ofBool(true));
        QCOMPARE(flex->args()[7], Argument::tuple({}));
        QCOMPARE(flex->args()[8], Argument::tuple({}));
        QCOMPARE(names(scoreAttr->users()), (std::vector<std::string>{"flex_attention"}));
        QVERIFY(flex->meta().source);
        QCOMPARE(flex->meta().source->function, std::string("flex_attention"));

        // score_mod_0 is a graph of its own: five scalar inputs, `child_3 - child_4`, and a bare `return add`.
        const Graph *score = g.subgraph("score_mod_0");
        QVERIFY(score);
        QVERIFY(lint(*score).empty());
        QCOMPARE(score->size(), size_t(8));
        QCOMPARE(names(score->placeholders()),
            (std::vector<std::string>{"child", "child_1", "child_2", "child_3", "child_4"}));
        QCOMPARE(score->find("child")->meta().val->toAnnotation(), std::string("f32[][]cuda:0"));
        Node *sub = score->find("sub");
        QCOMPARE(sub->target(), std::string("operator.sub"));
        QCOMPARE(sub->args()[0].node(), score->find("child_3"));
        QCOMPARE(sub->args()[1].node(), score->find("child_4"));
        QCOMPARE(sub->meta().source->line, 457);
        QCOMPARE(score->outputNode()->args()[0].node(), score->find("add"));
        QCOMPARE(score->find("add")->meta().dumpLine, 26);

        const Graph *mask = g.subgraph("mask_fn_0");
        QVERIFY(mask);
        QCOMPARE(mask->size(), size_t(6));
        QCOMPARE(mask->find("ge")->target(), std::string("operator.ge"));
        QCOMPARE(mask->find("ge")->meta().source->function, std::string("<lambda>"));
    }

    void condSubgraphs()
    {
        auto l = loadCorpus("pytorch_test_export__cond_branches_return_constant_int__print_readable_normalized.py");
        QVERIFY(l.graph);
        const Graph &g = *l.graph;
        QCOMPARE(names(g.placeholders()), (std::vector<std::string>{"x"}));
        QCOMPARE(node(g, "x")->meta().val->toAnnotation(), std::string("f32[3, 3]"));
        Node *guards = node(g, "_guards_fn");
        QCOMPARE(guards->op(), OpKind::CallModule);
        QCOMPARE(guards->target(), std::string("_guards_fn"));
        QVERIFY(guards->users().empty());
        Node *cond = node(g, "cond");
        QCOMPARE(cond->target(), std::string("torch.ops.higher_order.cond"));
        QCOMPARE(cond->args()[1].node(), node(g, "true_graph_0"));
        QCOMPARE(node(g, "true_graph_0")->op(), OpKind::GetAttr);
        QCOMPARE(cond->args()[3], Argument::tuple({}));
        QVERIFY(!cond->meta().val);
        QCOMPARE(node(g, "getitem_1")->target(), std::string("operator.getitem"));
        QCOMPARE(node(g, "getitem_1")->meta().val->expr, std::string("u0"));
        Node *ge = node(g, "ge_1");
        QCOMPARE(ge->meta().val->kind, ValueMeta::Kind::SymBool);
        QCOMPARE(node(g, "_assert_scalar_default")->args()[1],
            Argument::ofString("Runtime assertion failed for expression u0 >= 0 on node 'ge_1'"));
        QCOMPARE(g.outputNode()->args()[0], Argument::tuple({Argument::ofNode(node(g, "select"))}));

        const Graph *t = g.subgraph("true_graph_0");
        const Graph *f = g.subgraph("false_graph_0");
        QVERIFY(t && f);
        QCOMPARE(t->size(), size_t(1));
        QCOMPARE(t->outputNode()->args()[0], Argument::tuple({Argument::ofInt(0)}));
        QCOMPARE(f->outputNode()->args()[0], Argument::tuple({Argument::ofInt(1)}));
        QCOMPARE(t->outputNode()->meta().dumpLine, 27);
    }

    void exportedProgramWrapper()
    {
        auto l = loadCorpus("tlparse__export_log__exported_program_print.txt");
        QVERIFY(l.graph);
        const Graph &g = *l.graph;
        QCOMPARE(names(g.placeholders()), (std::vector<std::string>{"x", "y"}));
        QCOMPARE(node(g, "x")->meta().val->toAnnotation(), std::string("i64[]"));
        Node *scalar = node(g, "_local_scalar_dense");
        QCOMPARE(scalar->meta().dumpLine, 5);
        QCOMPARE(scalar->meta().val->expr, std::string("u1"));
        QCOMPARE(node(g, "neg")->target(), std::string("operator.neg"));
        QCOMPARE(node(g, "floordiv")->target(), std::string("operator.floordiv"));
        QCOMPARE(node(g, "floordiv")->meta().val->expr, std::string("((-u1)//3)"));
        QCOMPARE(node(g, "floordiv")->meta().source->function, std::string("__floordiv__"));
        QCOMPARE(node(g, "cat")->meta().val->tensor.shape[0].expr, std::string("2*s0"));
        Node *slice = node(g, "slice_1");
        QCOMPARE(slice->args()[3].node(), node(g, "add"));
        QCOMPARE(slice->meta().val->tensor.shape[0].expr, std::string("(((-u1)//3)) + 5"));
    }

    void unquotedAnnotationsAndOldFileComments()
    {
        auto l = loadCorpus("unknown_repo__pt2_0_era_aot_forward_deberta_embeddings_unquoted_annotations.py");
        QVERIFY(l.graph);
        const Graph &g = *l.graph;
        QCOMPARE(node(g, "primals_1")->meta().val->toAnnotation(), std::string("f32[768]"));
        QCOMPARE(node(g, "primals_5")->meta().val->tensor.dtype, std::string("torch.int64"));
        Node *slice = node(g, "slice_1");
        QCOMPARE(slice->args()[3], Argument::ofInt(9223372036854775807LL));
        QCOMPARE(slice->meta().val->toAnnotation(), std::string("i64[1, 512]"));
        // `# File: path:794, code: ...` has no function name.
        QVERIFY(slice->meta().source);
        QCOMPARE(slice->meta().source->line, 794);
        QCOMPARE(slice->meta().source->function, std::string());
        QCOMPARE(slice->meta().source->code, std::string("position_ids = self.position_ids[:, :seq_length]"));
        QVERIFY(endsWith(slice->meta().source->file, "transformers/models/deberta/modeling_deberta.py"));
        QCOMPARE(node(g, "add_1")->args()[1], Argument::ofFloat(1e-07));
        QCOMPARE(g.outputNode()->args()[0].kind(), Argument::Kind::List);
    }

    void dynamoTypeAnnotationsAndModules()
    {
        auto l = loadCorpus("learn_torch_compile__tb_resnet50_inference_cpu__dynamo_captured_graph.py");
        QVERIFY(l.graph);
        const Graph &g = *l.graph;
        Node *input = node(g, "l_inputs_0_");
        QCOMPARE(input->target(), std::string("L_inputs_0_"));
        QCOMPARE(input->meta().typeAnnotation, std::string("torch.Tensor"));
        QVERIFY(!input->meta().val);
        Node *conv = node(g, "x");
        QCOMPARE(conv->op(), OpKind::CallModule);
        QCOMPARE(conv->target(), std::string("L__mod___conv1"));
        QCOMPARE(conv->args()[0].node(), input);
        QCOMPARE(node(g, "x_9")->target(), std::string("torch.flatten"));
        QCOMPARE(node(g, "x_9")->args()[1], Argument::ofInt(1));
    }

    void blackFormattedDynamoGraph()
    {
        auto l = loadCorpus("graphnet__shanjiang7_fork__ms-marco-MiniLM-L2-v2__dynamo_graph_black_formatted.py");
        QVERIFY(l.graph);
        const Graph &g = *l.graph;
        QCOMPARE(g.placeholders().size(), size_t(45));
        Node *weight = node(g, "l_self_modules_classifier_parameters_weight_");
        QVERIFY(weight);
        QCOMPARE(weight->target(), std::string("L_self_modules_classifier_parameters_weight_"));
        QCOMPARE(weight->meta().typeAnnotation, std::string("torch.nn.parameter.Parameter"));
        // The alias was split over three lines: `l_..._layer_norm_parameters_weight_ = (\n L_..._LayerNorm_... \n)`.
        QVERIFY(node(g, "l_self_modules_bert_modules_embeddings_modules_layer_norm_parameters_weight_"));
        Node *positions = node(g, "position_ids");
        QCOMPARE(positions->target(), std::string("operator.getitem"));
        QCOMPARE(positions->meta().dumpLine, 112);
        QCOMPARE(positions->args()[1],
            Argument::tuple({Argument::slice(Argument::none(), Argument::none(), Argument::none()),
                Argument::slice(Argument::ofInt(0), Argument::ofInt(34), Argument::none())}));
        Node *embedding = node(g, "inputs_embeds");
        QCOMPARE(embedding->args().size(), size_t(7));
        QCOMPARE(embedding->args()[4], Argument::ofFloat(2.0));
        // `embeddings += position_embeddings` then `embeddings_1 = embeddings` is one in-place node.
        Node *iadd = node(g, "embeddings_1");
        QCOMPARE(iadd->target(), std::string("operator.iadd"));
        QCOMPARE(iadd->args()[0].node(), node(g, "embeddings"));
        QCOMPARE(iadd->args()[1].node(), node(g, "position_embeddings"));
        QCOMPARE(iadd->meta().dumpLine, 148);
        QCOMPARE(node(g, "embeddings_2")->args()[0].node(), iadd);
        Node *to = node(g, "expanded_mask");
        QCOMPARE(to->op(), OpKind::CallMethod);
        QCOMPARE(to->target(), std::string("to"));
        QCOMPARE(to->args()[1], Argument::ofText(Argument::Kind::Dtype, "torch.float32"));
        QCOMPARE(node(g, "extended_attention_mask")->args()[2], Argument::ofFloat(-3.4028234663852886e38));
        Node *attention = node(g, "attn_output");
        QCOMPARE(attention->kwargs().size(), size_t(3));
        QCOMPARE(attention->kwarg("attn_mask")->node(), node(g, "extended_attention_mask"));
        QCOMPARE(*attention->kwarg("is_causal"), Argument::ofBool(false));
    }

    void graphModuleCode()
    {
        auto l = loadCorpus("pytorch_test_export__unflatten_closure__graph_module_code.py");
        QVERIFY(l.graph);
        Node *dummy = node(*l.graph, "dummy");
        QCOMPARE(dummy->op(), OpKind::CallModule);
        QCOMPARE(dummy->target(), std::string("dummy"));
        QCOMPARE(dummy->args()[0].node(), node(*l.graph, "add"));
        QVERIFY(!node(*l.graph, "x")->meta().val);
    }

    // Statement forms FX prints, each checked on a small graph.
    void statementForms_data()
    {
        QTest::addColumn<QString>("statement");
        QTest::addColumn<int>("op");
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("args"); // Argument::toPython of each argument, then k=v kwargs
        const struct {
            const char *statement, *target, *args;
            OpKind op;
        } rows[] = {
            {"a + b", "operator.add", "a, b", OpKind::CallFunction},
            {"a - 1", "operator.sub", "a, 1", OpKind::CallFunction},
            {"-a", "operator.neg", "a", OpKind::CallFunction},
            {"~a", "operator.invert", "a", OpKind::CallFunction},
            {"a >= b", "operator.ge", "a, b", OpKind::CallFunction},
            {"a == 0", "operator.eq", "a, 0", OpKind::CallFunction},
            {"a @ b", "operator.matmul", "a, b", OpKind::CallFunction},
            {"a // 3", "operator.floordiv", "a, 3", OpKind::CallFunction},
            {"a ** 2", "operator.pow", "a, 2", OpKind::CallFunction},
            {"a[0]", "operator.getitem", "a, 0", OpKind::CallFunction},
            {"a[:, None, 1:]", "operator.getitem", "a, (slice(None, None, None), None, slice(1, None, None))",
                OpKind::CallFunction},
            {"a[...]", "operator.getitem", "a, ...", OpKind::CallFunction},
            {"a.view(-1, 4)", "view", "a, -1, 4", OpKind::CallMethod},
            {"a.to(torch.float16, non_blocking = True)", "to", "a, torch.float16, non_blocking=True",
                OpKind::CallMethod},
            {"a.shape", "builtins.getattr", "a, 'shape'", OpKind::CallFunction},
            {"getattr(a, 'shape')", "builtins.getattr", "a, 'shape'", OpKind::CallFunction},
            {"self.linear(a)", "linear", "a", OpKind::CallModule},
            {"self.layers.conv(a)", "layers.conv", "a", OpKind::CallModule},
            {"getattr(self.layers, \"0\")(a)", "layers.0", "a", OpKind::CallModule},
            {"getattr(getattr(self.layers, \"0\"), \"1\").conv(a)", "layers.0.1.conv", "a", OpKind::CallModule},
            {"self._tensor_constant0", "_tensor_constant0", "", OpKind::GetAttr},
            {"getattr(self.layers, \"0\")", "layers.0", "", OpKind::GetAttr},
            {"torch.ops.aten.add.Tensor(a, b, alpha = 2)", "torch.ops.aten.add.Tensor", "a, b, alpha=2",
                OpKind::CallFunction},
            {"torch.ops.aten.full.default([2, s0], -inf, dtype = torch.bfloat16, layout = torch.strided, device = "
             "device(type='cpu'), pin_memory = False)",
                "torch.ops.aten.full.default",
                "[2, s0], -inf, dtype=torch.bfloat16, layout=torch.strided, device=device(type='cpu'), "
                "pin_memory=False",
                OpKind::CallFunction},
            {"torch.ops.aten.clone.default(a, memory_format = torch.contiguous_format)", "torch.ops.aten.clone.default",
                "a, memory_format=torch.contiguous_format", OpKind::CallFunction},
            {"torch.ops.aten.empty_like.default(a, memory_format = torch.preserve_format)",
                "torch.ops.aten.empty_like.default", "a, memory_format=torch.preserve_format", OpKind::CallFunction},
            {"torch.ops.aten.foo.default(a, [True, False], None, 1e-05, nan, inf, 'mean', \"it's\")",
                "torch.ops.aten.foo.default", "a, [True, False], None, 1e-05, nan, inf, 'mean', \"it's\"",
                OpKind::CallFunction},
            {"max(a, b)", "builtins.max", "a, b", OpKind::CallFunction},
            {"einops_einops_rearrange(a, 'b c -> c b')", "einops_einops_rearrange", "a, 'b c -> c b'",
                OpKind::CallFunction},
            {"torch.ops.higher_order.wrap(wrap_body_0, a, {'k': b, 'n': 1})", "torch.ops.higher_order.wrap",
                "wrap_body_0, a, {'k': b, 'n': 1}", OpKind::CallFunction},
        };
        for (const auto &r : rows)
            QTest::newRow(r.statement) << QString::fromUtf8(r.statement) << int(r.op) << QString::fromUtf8(r.target)
                                       << QString::fromUtf8(r.args);
    }

    void statementForms()
    {
        QFETCH(QString, statement);
        QFETCH(int, op);
        QFETCH(QString, target);
        QFETCH(QString, args);
        std::string source = "class GraphModule(torch.nn.Module):\n"
                             "    def forward(self, a, b):\n"
                             "        wrap_body_0 = self.wrap_body_0\n"
                             "        r = "
            + statement.toStdString() + "\n        return (r,)\n";
        auto file = parseText(source);
        QVERIFY2(file.ok(), file.ok() ? "" : file.error().toString().c_str());
        const Graph &g = *file->graphs[0].graph;
        QVERIFY(lint(g).empty());
        Node *r = g.find("r");
        QVERIFY(r);
        QCOMPARE(int(r->op()), op);
        QCOMPARE(QString::fromStdString(r->target()), target);
        std::string printed;
        for (const auto &a : r->args())
            printed += (printed.empty() ? "" : ", ") + a.toPython();
        for (const auto &kv : r->kwargs())
            printed += (printed.empty() ? "" : ", ") + kv.first + "=" + kv.second.toPython();
        QCOMPARE(QString::fromStdString(printed), args);
        QCOMPARE(r->meta().dumpLine, 4);
    }

    void argumentKinds()
    {
        auto file = parseText("def forward(self, x):\n"
                              "    f = torch.ops.aten.f.default(x, s0, 2*s0 + 1, -3, -inf, torch.float32, torch.int64, "
                              "torch.strided, torch.channels_last, device(type='cuda', index=1), device('cpu'), "
                              "slice(1, 2, 3), slice(4), ..., Ellipsis, {'a': 1}, (1,), [], "
                              "torch.Tensor(size=[3], dtype=float32), Point(x=1, y=2), Color.RED, 0x10, "
                              "-9223372036854775808)\n"
                              "    return f\n");
        QVERIFY2(file.ok(), file.ok() ? "" : file.error().toString().c_str());
        const Graph &g = *file->graphs[0].graph;
        QCOMPARE(file->graphs[0].name, std::string("forward"));
        const auto &a = g.find("f")->args();
        QCOMPARE(a.size(), size_t(23));
        QCOMPARE(a[1], Argument::ofText(Argument::Kind::SymExpr, "s0"));
        QCOMPARE(a[2], Argument::ofText(Argument::Kind::SymExpr, "2*s0 + 1"));
        QCOMPARE(a[3], Argument::ofInt(-3));
        QCOMPARE(a[4].kind(), Argument::Kind::Float);
        QVERIFY(std::isinf(a[4].toDouble()) && a[4].toDouble() < 0);
        QCOMPARE(a[5], Argument::ofText(Argument::Kind::Dtype, "torch.float32"));
        QCOMPARE(a[6], Argument::ofText(Argument::Kind::Dtype, "torch.int64"));
        QCOMPARE(a[7], Argument::ofText(Argument::Kind::Layout, "torch.strided"));
        QCOMPARE(a[8], Argument::ofText(Argument::Kind::MemoryFormat, "torch.channels_last"));
        QCOMPARE(a[9], Argument::ofText(Argument::Kind::Device, "cuda:1"));
        QCOMPARE(a[10], Argument::ofText(Argument::Kind::Device, "cpu"));
        QCOMPARE(a[11], Argument::slice(Argument::ofInt(1), Argument::ofInt(2), Argument::ofInt(3)));
        QCOMPARE(a[12], Argument::slice(Argument::none(), Argument::ofInt(4), Argument::none()));
        QCOMPARE(a[13], Argument::ellipsis());
        QCOMPARE(a[14], Argument::ellipsis());
        QCOMPARE(a[15], Argument::dict({{"a", Argument::ofInt(1)}}));
        QCOMPARE(a[16], Argument::tuple({Argument::ofInt(1)}));
        QCOMPARE(a[17], Argument::list({}));
        QCOMPARE(a[18], Argument::ofText(Argument::Kind::Verbatim, "torch.Tensor(size=[3], dtype=float32)"));
        QCOMPARE(a[19], Argument::ofText(Argument::Kind::Verbatim, "Point(x=1, y=2)"));
        QCOMPARE(a[20], Argument::ofText(Argument::Kind::Verbatim, "Color.RED"));
        QCOMPARE(a[21], Argument::ofInt(16));
        QCOMPARE(a[22], Argument::ofInt(std::numeric_limits<int64_t>::min()));
        // Python ints beyond 64 bits are kept as written.
        QCOMPARE(g.find("f")->args().size(), size_t(23));
        auto big
            = parseText("def forward(self, x):\n    f = torch.ops.aten.f.default(x, 123456789012345678901234567890)\n"
                        "    return f\n");
        QVERIFY(big.ok());
        QCOMPARE(big->graphs[0].graph->find("f")->args()[1],
            Argument::ofText(Argument::Kind::Verbatim, "123456789012345678901234567890"));
    }

    void placeholderForms()
    {
        // varargs keep their star in the target; defaults become the placeholder's argument.
        auto file = parseText("def forward(self, x: \"f32[2]\", n: \"Sym(s0)\", *args, flag = True, **kwargs):\n"
                              "    return (x, n, args, flag, kwargs)\n");
        QVERIFY2(file.ok(), file.ok() ? "" : file.error().toString().c_str());
        const Graph &g = *file->graphs[0].graph;
        QCOMPARE(names(g.placeholders()), (std::vector<std::string>{"x", "n", "args", "flag", "kwargs"}));
        QCOMPARE(g.find("args")->target(), std::string("*args"));
        QCOMPARE(g.find("kwargs")->target(), std::string("**kwargs"));
        QCOMPARE(g.find("flag")->args(), std::vector<Argument>{Argument::ofBool(true)});
        QCOMPARE(g.find("n")->meta().val->expr, std::string("s0"));

        // The boxed calling convention: forward(self, args_list) unpacks with next(args_iter).
        auto boxed = parseText("def forward(self, args_list):\n"
                               "    args_iter = iter(args_list)\n"
                               "    arg0_1 = next(args_iter)\n"
                               "    arg1_1 = next(args_iter)\n"
                               "    args_list.clear()\n"
                               "    add = torch.ops.aten.add.Tensor(arg0_1, arg1_1);  arg0_1 = arg1_1 = None\n"
                               "    return (add,)\n");
        QVERIFY2(boxed.ok(), boxed.ok() ? "" : boxed.error().toString().c_str());
        QCOMPARE(names(boxed->graphs[0].graph->placeholders()), (std::vector<std::string>{"arg0_1", "arg1_1"}));
        QCOMPARE(boxed->graphs[0].graph->size(), size_t(4));

        // Pytree with keyword inputs and a tree_unflatten return; annotations may be unparseable meta.
        auto pytree
            = parseText("class GraphModule(torch.nn.Module):\n"
                        "    def forward(self, x, *, scale):\n"
                        "        x: \"f32[4]\"; scale: \"DTensor(f32[4])\"; \n"
                        "        x, scale, = fx_pytree.tree_flatten_spec(([x], {'scale':scale}), self._in_spec)\n"
                        "        mul = x * scale;  x = scale = None\n"
                        "        return pytree.tree_unflatten((mul,), self._out_spec)\n");
        QVERIFY2(pytree.ok(), pytree.ok() ? "" : pytree.error().toString().c_str());
        const Graph &p = *pytree->graphs[0].graph;
        QCOMPARE(names(p.placeholders()), (std::vector<std::string>{"x", "scale"}));
        QCOMPARE(p.find("x")->meta().val->toAnnotation(), std::string("f32[4]"));
        QVERIFY(!p.find("scale")->meta().val);
        QCOMPARE(p.find("scale")->meta().extra["annotation"].toString(), std::string("DTensor(f32[4])"));
        QCOMPARE(p.outputNode()->args()[0], Argument::tuple({Argument::ofNode(p.find("mul"))}));
    }

    void inplaceAndAliases()
    {
        auto file = parseText("def forward(self, L_x_ : torch.Tensor, L_y_ : torch.Tensor):\n"
                              "    l_x_ = L_x_\n"
                              "    l_y_ = L_y_\n"
                              "    l_x_ += l_y_;  x = l_x_;  l_x_ = None\n"
                              "    z = x;  x = None\n"
                              "    w = z * 2\n"
                              "    w -= 1\n"
                              "    return (w,)\n");
        QVERIFY2(file.ok(), file.ok() ? "" : file.error().toString().c_str());
        const Graph &g = *file->graphs[0].graph;
        QVERIFY(lint(g).empty());
        QCOMPARE(names(g.placeholders()), (std::vector<std::string>{"l_x_", "l_y_"}));
        QCOMPARE(g.find("l_x_")->meta().typeAnnotation, std::string("torch.Tensor"));
        Node *x = g.find("x");
        QCOMPARE(x->target(), std::string("operator.iadd"));
        QCOMPARE(x->args()[0].node(), g.find("l_x_"));
        QCOMPARE(x->args()[1].node(), g.find("l_y_"));
        // `z = x` only renames; `w -= 1` without a naming statement becomes a node named after its operator.
        QVERIFY(!g.find("z"));
        QCOMPARE(g.find("w")->args()[0].node(), x);
        Node *isub = g.find("isub");
        QVERIFY(isub);
        QCOMPARE(isub->args()[0].node(), g.find("w"));
        QCOMPARE(g.outputNode()->args()[0], Argument::tuple({Argument::ofNode(isub)}));
        QCOMPARE(g.size(), size_t(6));
    }

    void fileCommentForms()
    {
        auto file = parseText("def forward(self, x):\n"
                              "    # File: /a/b.py:12 in forward, code: y = x + 1\n"
                              "    add = x + 1\n"
                              "    mul = add * 2  # a trailing comment changes nothing\n"
                              "    # some other comment\n"
                              "    sub = mul - 1\n"
                              "    # No stacktrace found for following nodes\n"
                              "    neg = -sub\n"
                              "        # File: /c/d.py:7, code: return f(x, in_place=True)\n"
                              "    relu = torch.relu(neg)\n"
                              "    # Annotation: {'stream': 1} File: /e.py:3 in <lambda>, code: z\n"
                              "    exp = torch.exp(relu)\n"
                              "    return exp\n");
        QVERIFY2(file.ok(), file.ok() ? "" : file.error().toString().c_str());
        const Graph &g = *file->graphs[0].graph;
        SourceLocation first{"/a/b.py", 12, "forward", "y = x + 1"};
        QCOMPARE(g.find("add")->meta().source, std::optional<SourceLocation>(first));
        QCOMPARE(g.find("mul")->meta().source, std::optional<SourceLocation>(first));
        QCOMPARE(g.find("sub")->meta().source, std::optional<SourceLocation>(first));
        QVERIFY(!g.find("neg")->meta().source);
        SourceLocation old{"/c/d.py", 7, "", "return f(x, in_place=True)"};
        QCOMPARE(g.find("relu")->meta().source, std::optional<SourceLocation>(old));
        SourceLocation annotated{"/e.py", 3, "<lambda>", "z"};
        QCOMPARE(g.find("exp")->meta().source, std::optional<SourceLocation>(annotated));
        QVERIFY(!g.outputNode()->meta().source);
    }

    void logPrefixes()
    {
        auto file = parseText("TRACED GRAPH\n"
                              " ===== Forward graph 5 =====\n"
                              " <eval_with_key>.40 class GraphModule(torch.nn.Module):\n"
                              "    def forward(self, x: \"f32[2]\"):\n"
                              "        relu = torch.ops.aten.relu.default(x);  x = None\n"
                              "        return (relu,)\n");
        QVERIFY2(file.ok(), file.ok() ? "" : file.error().toString().c_str());
        QCOMPARE(file->graphs[0].name, std::string("GraphModule"));
        QCOMPARE(file->graphs[0].line, 3);
        QCOMPARE(file->graphs[0].graph->find("relu")->meta().dumpLine, 5);
    }

    // TORCH_LOGS output as torch 2.13 writes it (tests/data/torch2/logs has a real one): every line behind a glog
    // prefix with the compile id and the artifact, the module's file path before `class`. Each TRACED GRAPH message
    // is a graph named by its compile id and title; other messages and stray lines are skipped.
    void torchLogsWithGlogPrefixes()
    {
        const std::string p1
            = "V1126 14:55:24.247000 13558 torch/_inductor/compile_fx.py:1382] [0/0] [__post_grad_graphs] ";
        const std::string p2
            = "V1126 14:55:25.001000 13558 torch/_inductor/compile_fx.py:1382] [0/0] [__post_grad_graphs] ";
        const std::string other = "I1126 14:55:24.500000 13558 torch/_dynamo/guards.py:12] [0/0] [__guards] ";
        auto graph = [](const std::string &prefix, const char *title, const char *op) {
            return prefix + "TRACED GRAPH\n" + prefix + " ===== " + title + " =====\n" + prefix
                + " /v/torch/fx/_lazy_graph_module.py class GraphModule(torch.nn.Module):\n" + prefix
                + "    def forward(self, x: \"f32[2][1]cpu\"):\n" + prefix + "        " + op
                + ": \"f32[2][1]cpu\" = torch.ops.aten." + op + ".default(x);  x = None\n" + prefix + "        return ("
                + op + ",)\n" + prefix + "        \n" + prefix + "\n";
        };
        std::string log = graph(p1, "AFTER POST GRAD", "relu") + other + "GUARDS:\n" + other + "  def forward(self):\n"
            + "/usr/lib/python3/warnings.py:1: UserWarning: something\n" + graph(p2, "AFTER POST GRAD", "neg");
        auto file = parseReadable(log, "post_grad.log");
        QVERIFY2(file.ok(), file.ok() ? "" : file.error().toString().c_str());
        QVERIFY(file->warnings.empty());
        QCOMPARE(file->graphs.size(), size_t(2));
        QCOMPARE(file->graphs[0].name, std::string("[0/0] AFTER POST GRAD"));
        QCOMPARE(file->graphs[0].kind, std::string("post_grad_graphs"));
        QCOMPARE(file->graphs[0].line, 3);
        QCOMPARE(file->graphs[0].graph->find("relu")->meta().dumpLine, 5);
        QCOMPARE(file->graphs[0].graph->size(), size_t(3));
        QCOMPARE(file->graphs[1].name, std::string("[0/0] AFTER POST GRAD (2)"));
        QCOMPARE(file->graphs[1].line, 14);
        QCOMPARE(file->graphs[1].graph->find("neg")->meta().dumpLine, 16);

        // A message that does not parse is a warning at the file's line and column while the others load; with
        // none loading it is the error.
        std::string broken = graph(p1, "Forward graph 0", "relu");
        broken.replace(broken.find("(x);"), 4, "(x;;");
        file = parseReadable(broken + graph(p2, "Backward graph 0", "neg"), "broken.log");
        QVERIFY2(file.ok(), file.ok() ? "" : file.error().toString().c_str());
        QCOMPARE(file->graphs.size(), size_t(1));
        QCOMPARE(file->graphs[0].name, std::string("[0/0] Backward graph 0"));
        QCOMPARE(file->warnings.size(), size_t(1));
        QCOMPARE(file->warnings[0].line, 5);
        const std::string beforeError = "        relu: \"f32[2][1]cpu\" = torch.ops.aten.relu.default(x";
        QCOMPARE(file->warnings[0].column, int(p1.size() + beforeError.size()) + 1);
        auto failed = parseReadable(broken, "broken.log");
        QVERIFY(!failed.ok());
        QCOMPARE(failed.error().line, 5);

        auto none = parseReadable(other + "GUARDS:\n" + other + "  def forward(self):\n", "guards.log");
        QVERIFY(!none.ok());
        QCOMPARE(none.error().message,
            std::string("expected a TRACED GRAPH message in the TORCH_LOGS output (TORCH_LOGS=graph_code, aot_graphs, "
                        "post_grad_graphs), found none"));
    }

    void tokenizerTokens()
    {
        auto tokens
            = PythonTokenizer::tokenizeAll("if x:\n    y = f(a,\n  b)  # c\n\n# d\nz = 'q' r\"\\n\" 1.5e-3j ...\n");
        QVERIFY(tokens.ok());
        std::string kinds;
        for (const Token &t : tokens.value())
            kinds += std::string(tokenKindName(t.kind))
                + (t.kind == TokenKind::Name || t.kind == TokenKind::Op ? ":" + std::string(t.text) : "") + " ";
        QCOMPARE(QString::fromStdString(kinds),
            QStringLiteral("NAME:if NAME:x OP:: NEWLINE INDENT NAME:y OP:= NAME:f OP:( NAME:a OP:, NL NAME:b OP:) "
                           "COMMENT NEWLINE NL COMMENT NL DEDENT NAME:z OP:= STRING STRING NUMBER OP:... NEWLINE "
                           "ENDMARKER "));
        const Token &b = tokens.value()[12];
        QCOMPARE(b.text, std::string_view("b"));
        QCOMPARE(b.line, 3);
        QCOMPARE(b.column, 3);
        QCOMPARE(decodeStringLiteral("'a\\tb\\x41\\u00e9\\'\\n'").value(), std::string("a\tbA\xC3\xA9'\n"));
        QCOMPARE(decodeStringLiteral("r'\\n'").value(), std::string("\\n"));
        QCOMPARE(decodeStringLiteral("'''x\ny'''").value(), std::string("x\ny"));
    }

    // Malformed inputs: an error naming line and column, never a crash.
    void malformedInputs_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("message");
        QTest::newRow("truncated mid-call") << "def forward(self, x):\n    y = torch.relu(x,\n"
                                            << 3 << 1 << "expected ')' closing '(' opened at 2:19, found end of file";
        QTest::newRow("truncated after a statement")
            << "class A(torch.nn.Module):\n    def forward(self, x):\n        y = x + 1\n"
            << 4 << 1 << "expected 'return' ending forward(), found end of file";
        QTest::newRow("unbalanced brackets") << "def forward(self, x):\n    y = f(x, [1, 2)\n    return y\n"
                                             << 2 << 19 << "expected ']' closing '[' opened at 2:14, found ')'";
        QTest::newRow("unmatched closer") << "def forward(self, x):\n    y = x)\n    return y\n"
                                          << 2 << 10 << "expected an expression or a statement, found unmatched ')'";
        QTest::newRow("garbage") << "hello world, this is not a graph\n"
                                 << 1 << 1 << "expected 'class' or 'def forward(' of an FX graph, found 'hello'";
        QTest::newRow("binary garbage") << QString::fromLatin1("def forward(self, x):\n    y = x $ 2\n") << 2 << 11
                                        << "expected a Python token, found '$'";
        QTest::newRow("empty") << "" << 1 << 1
                               << "expected an FX graph ('def forward(' or 'class ...(torch.nn.Module):'), found none";
        QTest::newRow("unterminated string")
            << "def forward(self, x):\n    y = f(x, 'abc)\n    return y\n"
            << 2 << 19 << "expected ' closing the string opened at 2:14, found end of line";
        QTest::newRow("bad dedent")
            << "def forward(self, x):\n        y = x + 1\n    return y\n"
            << 3 << 5 << "expected an indentation matching an enclosing block, found an unindent to column 5";
        QTest::newRow("undefined name") << "def forward(self, x):\n    y = zzz\n    return y\n"
                                        << 2 << 9
                                        << "expected a defined value after '=', found the undefined name 'zzz'";
        QTest::newRow("code after return") << "def forward(self, x):\n    return x\n    y = x\n"
                                           << 3 << 5 << "expected the end of forward() after 'return', found 'y'";
        QTest::newRow("control flow") << "def forward(self, x):\n    if x:\n        return x\n"
                                      << 2 << 5 << "expected an FX statement (an assignment or 'return'), found 'if'";
        QTest::newRow("missing colon") << "def forward(self, x)\n    return x\n"
                                       << 1 << 21
                                       << "expected ':' after the parameters of forward(), found end of line";
        QTest::newRow("tuple target") << "def forward(self, x):\n    a, b = x\n    return a\n"
                                      << 2 << 5 << "expected a node name before '=', found a, b";
        QTest::newRow("bad number") << "def forward(self, x):\n    y = x + 12abc\n    return y\n"
                                    << 2 << 15 << "expected an operator or a delimiter after the number, found 'a'";
    }

    void malformedInputs()
    {
        QFETCH(QString, source);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, message);
        auto file = parseReadable(source.toStdString(), "bad.py");
        QVERIFY(!file.ok());
        QCOMPARE(QString::fromStdString(file.error().message), message);
        QCOMPARE(file.error().file, std::string("bad.py"));
        QCOMPARE(file.error().line, line);
        QCOMPARE(file.error().column, column);
    }

    // A payload parsed at an offset reports file positions.
    void payloadOffsets()
    {
        std::string payload = "\tclass GraphModule(torch.nn.Module):\n"
                              "\t    def forward(self, x: \"f32[2]\"):\n"
                              "\t        y = torch.relu(x)\n"
                              "\n"
                              "\t        return (y,)\n";
        auto ok = parseReadablePayload(payload, "log.txt", 41);
        QVERIFY2(ok.ok(), ok.ok() ? "" : ok.error().toString().c_str());
        QCOMPARE(ok->graphs[0].line, 41);
        QCOMPARE(ok->graphs[0].graph->find("y")->meta().dumpLine, 43);
        auto bad = parseReadablePayload("\tdef forward(self, x):\n\t    y = f(x]\n", "log.txt", 100);
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().line, 101);
        QCOMPARE(bad.error().column, 13);
    }

    // 100k statements: linear time, no recursion over statements.
    void longChain()
    {
        const int length = 100000;
        std::string source = "def forward(self, x: \"f32[8]\"):\n    a0 = torch.ops.aten.relu.default(x)\n";
        source.reserve(size_t(length) * 48);
        for (int i = 1; i < length; ++i)
            source += "    a" + std::to_string(i) + " = torch.ops.aten.relu.default(a" + std::to_string(i - 1) + ");  a"
                + std::to_string(i - 1) + " = None\n";
        source += "    return (a" + std::to_string(length - 1) + ",)\n";
        QElapsedTimer timer;
        timer.start();
        auto file = parseText(source);
        qint64 elapsed = timer.elapsed();
        QVERIFY2(file.ok(), file.ok() ? "" : file.error().toString().c_str());
        const Graph &g = *file->graphs[0].graph;
        QCOMPARE(int(g.size()), length + 2);
        QVERIFY(lint(g).empty());
        QCOMPARE(g.find("a99999")->args()[0].node(), g.find("a99998"));
        QCOMPARE(g.find("a99999")->meta().dumpLine, length + 1);
        qInfo("100k-node chain parsed in %lld ms", elapsed);
    }

    // Deep nesting of every recursive construct ends in an error, not a stack overflow.
    void deepNesting_data()
    {
        QTest::addColumn<QString>("open");
        QTest::addColumn<QString>("close");
        QTest::addColumn<QString>("message");
        QTest::newRow("parentheses") << "("
                                     << ")"
                                     << "nested brackets";
        QTest::newRow("lists") << "["
                               << "]"
                               << "nested brackets";
        QTest::newRow("dicts") << "{'k': "
                               << "}"
                               << "nested brackets";
        QTest::newRow("calls") << "f("
                               << ")"
                               << "nested brackets";
        QTest::newRow("unary minus") << "-"
                                     << ""
                                     << "levels deep";
        QTest::newRow("not") << "not "
                             << ""
                             << "levels deep";
        QTest::newRow("power") << "2 ** "
                               << ""
                               << "nested brackets";
        QTest::newRow("conditional") << "x if x else "
                                     << ""
                                     << "nested brackets";
    }

    void deepNesting()
    {
        QFETCH(QString, open);
        QFETCH(QString, close);
        QFETCH(QString, message);
        const int depth = 100000;
        std::string o = open.toStdString(), c = close.toStdString();
        std::string source = "def forward(self, x):\n    y = ";
        source.reserve(size_t(depth) * (o.size() + c.size()) + 64);
        for (int i = 0; i < depth; ++i)
            source += o;
        source += "x";
        for (int i = 0; i < depth; ++i)
            source += c;
        source += "\n    return y\n";
        auto file = parseText(source);
        QVERIFY(!file.ok());
        QCOMPARE(file.error().line, 2);
        QVERIFY2(QString::fromStdString(file.error().message).contains(message), file.error().message.c_str());
        QVERIFY(file.error().message.rfind("expected ", 0) == 0);
    }

    // Long postfix and operator chains are built iteratively but bounded in height too.
    void longChainsInOneExpression_data()
    {
        QTest::addColumn<QString>("piece");
        QTest::newRow("attributes") << ".a";
        QTest::newRow("calls") << "()";
        QTest::newRow("subscripts") << "[0]";
        QTest::newRow("additions") << " + x";
    }

    void longChainsInOneExpression()
    {
        QFETCH(QString, piece);
        std::string source = "def forward(self, x):\n    y = x";
        for (int i = 0; i < 100000; ++i)
            source += piece.toStdString();
        source += "\n    return y\n";
        auto file = parseText(source);
        QVERIFY(!file.ok());
        QVERIFY2(file.error().message.find("levels deep") != std::string::npos, file.error().message.c_str());
        // A modest chain is fine.
        std::string small = "def forward(self, x):\n    y = x";
        for (int i = 0; i < 100; ++i)
            small += piece.toStdString();
        small += "\n    return y\n";
        QVERIFY(parseText(small).ok());
    }

    void deepClassNesting()
    {
        std::string source;
        for (int i = 0; i < 100; ++i)
            source += std::string(size_t(i) * 4, ' ') + "class c" + std::to_string(i) + "(torch.nn.Module):\n";
        source += std::string(400, ' ') + "pass\n";
        auto file = parseText(source);
        QVERIFY(!file.ok());
        QVERIFY2(file.error().message.find("nested at most") != std::string::npos, file.error().message.c_str());
    }

private:
    static bool endsWith(const std::string &s, const std::string &suffix)
    {
        return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
    }
};

QTEST_APPLESS_MAIN(TestReadableParser)
#include "tst_readable_parser.moc"
