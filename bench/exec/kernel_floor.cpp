// LibTorch's own cost of the calls in bench/exec's chains, with no executor around them: the same aten ops on the
// same 4-element float32 tensor, called straight from C++. Two forms, one per side of the comparison:
//   graphmodule  the calls GraphModule makes: functional ops, a fresh output per op, 0.5 passed as a Python
//                number (a wrapped double converted by TensorIterator on every call)
//   fxscope      the calls fxscope's executor makes: out= variants writing into the buffer freed two ops
//                earlier, 0.5 held once as a float32 wrapped number; relu has no CPU out kernel, so it allocates
// Subtracting these from each side's time per node leaves each side's own overhead. Not built by default (it is
// the second target with torch headers): run.py builds it on demand.

#include <ATen/ATen.h>
#include <c10/core/InferenceMode.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

at::Tensor wrapped(double value, at::ScalarType dtype)
{
    at::Tensor t = at::scalar_tensor(value, at::kDouble).to(dtype);
    t.unsafeGetTensorImpl()->set_wrapped_number(true);
    return t;
}

// One run over `ops` chained ops (add, mul, relu, sub, neg, repeated), as GraphModule's calls.
void graphModuleRun(const at::Tensor &x, int ops)
{
    at::Tensor prev = x;
    for (int i = 0; i < ops; ++i) {
        switch (i % 5) {
        case 0: prev = at::add(prev, x); break;
        case 1: prev = at::mul(prev, wrapped(0.5, at::kDouble)); break;
        case 2: prev = at::relu(prev); break;
        case 3: prev = at::sub(prev, x); break;
        default: prev = at::neg(prev); break;
        }
    }
}

// The same run as fxscope's calls: the output goes into the buffer freed by the op before last.
void fxscopeRun(const at::Tensor &x, int ops, const at::Tensor &half)
{
    at::Tensor prev = x, spare;
    for (int i = 0; i < ops; ++i) {
        at::Tensor out = spare.defined() ? spare : at::Tensor();
        switch (i % 5) {
        case 0: out = out.defined() ? at::add_out(out, prev, x) : at::add(prev, x); break;
        case 1: out = out.defined() ? at::mul_out(out, prev, half) : at::mul(prev, half); break;
        case 2: out = at::relu(prev); break;
        case 3: out = out.defined() ? at::sub_out(out, prev, x) : at::sub(prev, x); break;
        default: out = out.defined() ? at::neg_out(out, prev) : at::neg(prev); break;
        }
        spare = prev.is_same(x) ? at::Tensor() : prev;
        prev = out;
    }
}

template <typename Run>
double medianMicros(Run run, int repeat)
{
    run();
    std::vector<double> times;
    for (int r = 0; r < repeat; ++r) {
        auto start = std::chrono::steady_clock::now();
        run();
        times.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

} // namespace

int main(int argc, char **argv)
{
    const int nodes = argc > 1 ? std::atoi(argv[1]) : 1000;
    const int repeat = argc > 2 ? std::atoi(argv[2]) : 7;
    const int ops = std::max(nodes - 2, 1); // placeholder and output are nodes too, as in run.py's chains
    c10::InferenceMode inference;
    at::Tensor x = at::rand({4});
    at::Tensor half = wrapped(0.5, at::kFloat);
    double graphModule = medianMicros([&] { graphModuleRun(x, ops); }, repeat) / nodes;
    double fxscope = medianMicros([&] { fxscopeRun(x, ops, half); }, repeat) / nodes;
    std::printf("{\"nodes\":%d,\"graphmodule_calls_us_per_node\":%.4f,\"fxscope_calls_us_per_node\":%.4f}\n", nodes,
        graphModule, fxscope);
    return 0;
}
