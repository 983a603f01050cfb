#pragma once
// Helpers for tests that build graphs in code.

#include "ir/tensor_meta.h"

#include <QtGlobal>

namespace fxs::test {

// The ValueMeta of an FX annotation such as "f32[4, 8][8, 1]cpu"; a typo in a test stops it at once.
inline ValueMeta meta(const char *annotation)
{
    auto parsed = ValueMeta::parseAnnotation(annotation);
    if (!parsed)
        qFatal("bad annotation in test '%s': %s", annotation, parsed.error().message.c_str());
    return parsed.value();
}

} // namespace fxs::test
