#pragma once
// What the GUI tests share: settings in a temporary folder, the main window opened on the bundled sample, and waits
// for the Document's background work (matching, stepping, layout). Every wait gives up after kTimeoutMs.

#include "document.h"
#include "graph_canvas.h"
#include "gui_test_paths.h"
#include "mainwindow.h"

#include <QCoreApplication>
#include <QDir>
#include <QGuiApplication>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QString>
#include <QTemporaryDir>

#include <memory>

namespace fxs::test {

constexpr int kTimeoutMs = 30000;

// Rotary embedding (x·cos + rotate_half(x)·sin, an npu_rotary_mul candidate) with an extra_check the sample fails:
// its head dimension is 128, not 64. A pattern file of the user's kind; no built-in pattern claims these nodes.
constexpr char kRotaryPatternFile[] = R"(import torch
from torch._inductor.pattern_matcher import register_replacement, fwd_only

def search(x, cos, x_rotated, sin):
    return torch.ops.aten.add.Tensor(torch.ops.aten.mul.Tensor(x, cos), torch.ops.aten.mul.Tensor(x_rotated, sin))

def replace(x, cos, x_rotated, sin):
    return torch.ops.aten.add.Tensor(torch.ops.aten.mul.Tensor(x, cos), torch.ops.aten.mul.Tensor(x_rotated, sin))

def head_dim_is_64(match):
    return match.kwargs["x"].meta["val"].shape[-1] == 64

t = torch.empty(1, 2, 8, 64, dtype=torch.float16)
register_replacement(search, replace, [t, t, t, t], fwd_only, [], extra_check=head_dim_is_64)
)";

// QSettings go to an INI file in `dir`, so a test never reads or writes the user's settings.
inline void useTemporarySettings(const QTemporaryDir &dir, const QString &application)
{
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.filePath(QStringLiteral("settings")));
    QCoreApplication::setOrganizationName(QStringLiteral("fxscope-tests"));
    QCoreApplication::setApplicationName(application);
}

// Opens the bundled sample in `doc` and waits until its match report arrives.
inline bool openSampleAndMatch(Document *doc)
{
    QSignalSpy matched(doc, &Document::matchReportChanged);
    doc->openBundledSample();
    return matched.wait(kTimeoutMs) && doc->matchReport();
}

// Waits until the Document has no stepping request left.
inline bool settle(Document *doc)
{
    QSignalSpy idle(doc, &Document::steppingChanged);
    while (doc->isStepping())
        if (!idle.wait(kTimeoutMs))
            return false;
    return true;
}

// Waits until `canvas` has laid out what it was last given; false when it has no layout then.
inline bool laidOut(GraphCanvas *canvas)
{
    QSignalSpy done(canvas, &GraphCanvas::layoutFinished);
    while (canvas->isLayoutRunning())
        if (!done.wait(kTimeoutMs))
            return false;
    return canvas->sceneLayout() != nullptr;
}

// A main window on its own Document, owned by the test function that opened it.
struct Loaded {
    std::unique_ptr<Document> doc;
    std::unique_ptr<MainWindow> window;
};

struct SampleOptions {
    // 1600x1000: wide enough for the docks, the canvas and the pattern beside it (the offscreen screen is small).
    bool wide = false;
    // Also wait for the canvas's first layout of the sample.
    bool waitForLayout = true;
};

// A new window showing the bundled sample, matched (and laid out unless the options say otherwise).
inline bool openSample(Loaded &l, SampleOptions options = {})
{
    l.doc = std::make_unique<Document>();
    l.window = std::make_unique<MainWindow>(l.doc.get());
    if (options.wide)
        l.window->setGeometry(0, 0, 1600, 1000);
    // Listening before the load: the layout may finish before the match report arrives.
    QSignalSpy layoutDone(l.window->canvas(), &GraphCanvas::layoutFinished);
    l.window->show();
    if (!openSampleAndMatch(l.doc.get()))
        return false;
    return !options.waitForLayout || !layoutDone.isEmpty() || layoutDone.wait(kTimeoutMs);
}

// Saves a picture of `window` for docs/: the whole X screen with `import` when run on an X server (xvfb-run with
// QT_QPA_PLATFORM=xcb), else the window as Qt renders it.
inline bool saveScreenshot(QWidget *window, const QString &path)
{
    if (QGuiApplication::platformName() == QLatin1String("xcb")
        && QProcess::execute(QStringLiteral("import"), {QStringLiteral("-window"), QStringLiteral("root"), path}) == 0)
        return true;
    return window->grab().save(path);
}

} // namespace fxs::test
