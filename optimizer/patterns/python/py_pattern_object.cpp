#include "py_pattern_object.h"

#include "ir/tensor_meta.h"

namespace fxs {

namespace {

// torch.ops.npu.npu_add_rms_norm.default -> npu.npu_add_rms_norm.default; operator.getitem stays.
std::string targetOf(const PyValue &v, const std::string &ctor)
{
    std::string path;
    if (auto *o = v.as<PyOpaque>())
        path = o->path();
    else if (v.kind == PyValue::Kind::Str)
        path = v.str();
    else
        pyRaise("TypeError",
            ctor + "(): the target must be an operator such as torch.ops.aten.add.Tensor or operator.getitem, found "
                + pyTypeName(v));
    if (path.rfind("torch.ops.", 0) == 0)
        return path.substr(10);
    return path;
}

PatternValue slot(PyInterpreter &interp, const PyValue &v)
{
    if (auto *p = v.as<PyPatternObject>())
        return PatternValue::of(p->pattern());
    switch (v.kind) {
    case PyValue::Kind::None: return PatternValue::of(Argument::none());
    case PyValue::Kind::Bool: return PatternValue::of(Argument::ofBool(v.i != 0));
    case PyValue::Kind::Int: return PatternValue::of(Argument::ofInt(v.i));
    case PyValue::Kind::Float: return PatternValue::of(Argument::ofFloat(v.f));
    case PyValue::Kind::Str: return PatternValue::of(Argument::ofString(v.str()));
    case PyValue::Kind::List:
    case PyValue::Kind::Tuple: {
        std::vector<PatternValue> items;
        for (const PyValue &x : *v.list)
            items.push_back(slot(interp, x));
        return v.kind == PyValue::Kind::List ? PatternValue::list(std::move(items))
                                             : PatternValue::tuple(std::move(items));
    }
    default: break;
    }
    if (auto *o = v.as<PyOpaque>()) {
        if (isDtypeName(o->path()))
            return PatternValue::of(Argument::ofText(Argument::Kind::Dtype, o->path()));
        if (o->path().rfind("torch.ops.", 0) == 0 || o->path().rfind("operator.", 0) == 0)
            return PatternValue::of(Argument::ofText(Argument::Kind::Verbatim, targetOf(v, "")));
    }
    pyRaise("TypeError", "a pattern argument must be a pattern, a literal or a list of them, found " + pyTypeName(v));
}

int usersOf(const PyCallArgs &args)
{
    for (const auto &kv : args.kwargs)
        if (kv.first == "_users") {
            if (auto *o = kv.second.as<PyOpaque>())
                if (o->path().size() >= 8 && o->path().compare(o->path().size() - 8, 8, "MULTIPLE") == 0)
                    return PatternExpr::kMultiple;
            if (!kv.second.isIntLike())
                pyRaise("TypeError", "_users must be an int or MULTIPLE, found " + pyTypeName(kv.second));
            return int(kv.second.i);
        }
    return 1;
}

std::string nameArg(const PyCallArgs &args, const std::string &ctor)
{
    const PyValue *v = args.args.empty() ? args.kwarg("name") : &args.args[0];
    if (!v || v->kind != PyValue::Kind::Str)
        pyRaise("TypeError", ctor + "() takes the argument name as a string");
    return v->str();
}

PyValue wrap(PatternPtr p)
{
    return PyValue::ofObject(std::make_shared<PyPatternObject>(std::move(p)));
}

} // namespace

std::string PyPatternObject::typeName() const
{
    switch (m_pattern->kind) {
    case PatternExpr::Kind::Call:
        return m_pattern->op == OpKind::CallMethod ? "CallMethod"
            : m_pattern->op == OpKind::CallModule  ? "CallModule"
                                                   : "CallFunction";
    case PatternExpr::Kind::KeywordArg: return "KeywordArg";
    case PatternExpr::Kind::ExclusiveKeywordArg: return "ExclusiveKeywordArg";
    case PatternExpr::Kind::Ignored: return "Ignored";
    case PatternExpr::Kind::Arg: return "Arg";
    case PatternExpr::Kind::ListOf: return "ListOf";
    case PatternExpr::Kind::MultiOutput: return "MultiOutputPattern";
    default: return "PatternExpr";
    }
}

bool PyPatternObject::isInstanceOf(const std::string &cls) const
{
    const std::string last = cls.substr(cls.rfind('.') + 1);
    return last == typeName() || last == "PatternExpr";
}

bool PyPatternObject::construct(PyInterpreter &interp, const std::string &name, PyCallArgs &args, PyValue &out)
{
    if (name == "CallFunction" || name == "CallMethod" || name == "CallModule") {
        if (args.args.empty())
            pyRaise("TypeError", name + "() needs a target");
        std::vector<std::string> targets;
        if (args.args[0].isSequence())
            for (const PyValue &t : *args.args[0].list)
                targets.push_back(targetOf(t, name));
        else
            targets.push_back(targetOf(args.args[0], name));
        std::vector<PatternValue> slots;
        for (size_t i = 1; i < args.args.size(); ++i)
            slots.push_back(slot(interp, args.args[i]));
        std::vector<std::pair<std::string, PatternValue>> kwargs;
        for (const auto &kv : args.kwargs)
            if (kv.first != "_users")
                kwargs.push_back({kv.first, slot(interp, kv.second)});
        const int users = usersOf(args);
        if (name == "CallFunction")
            out = wrap(callFunction(targets, std::move(slots), std::move(kwargs), users));
        else if (name == "CallMethod")
            out = wrap(callMethod(targets[0], std::move(slots), std::move(kwargs), users));
        else
            out = wrap(callModule(targets[0], std::move(slots), std::move(kwargs), users));
    } else if (name == "KeywordArg") {
        out = wrap(keywordArg(nameArg(args, name)));
    } else if (name == "ExclusiveKeywordArg") {
        out = wrap(exclusiveKeywordArg(nameArg(args, name)));
    } else if (name == "Ignored") {
        out = wrap(ignored());
    } else if (name == "Arg") {
        out = wrap(argPattern());
    } else if (name == "ListOf") {
        auto *inner = args.args.empty() ? nullptr : args.args[0].as<PyPatternObject>();
        if (!inner)
            pyRaise("TypeError", "ListOf() takes a pattern");
        const PyValue *partial = args.kwarg("partial");
        out = wrap(listOf(inner->pattern(), partial && pyTruthy(*partial)));
    } else if (name == "MultiOutputPattern") {
        if (args.args.size() != 1 || !args.args[0].isSequence())
            pyRaise("TypeError", "MultiOutputPattern() takes a list of patterns");
        std::vector<PatternPtr> outputs;
        for (const PyValue &v : *args.args[0].list) {
            auto *p = v.as<PyPatternObject>();
            if (!p && !(v.isNone() && !outputs.empty()))
                pyRaise("TypeError", "MultiOutputPattern() outputs must be patterns, found " + pyTypeName(v));
            outputs.push_back(p ? p->pattern() : nullptr);
        }
        out = wrap(multiOutput(std::move(outputs)));
    } else {
        return false;
    }
    return true;
}

} // namespace fxs
