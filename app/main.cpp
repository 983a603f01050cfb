// fxscope: the GUI. Opens the graph dump named on the command line, or the bundled sample.

#include "document.h"
#include "logging.h"
#include "mainwindow.h"
#include "util/install_layout.h"

#include <QApplication>
#include <QCommandLineParser>

#include <cstdio>
#include <cstring>
#include <memory>

int main(int argc, char *argv[])
{
    // Answered before QApplication, which needs a display; QCommandLineParser still lists the option in --help.
    for (int i = 1; i < argc; ++i)
        if (!std::strcmp(argv[i], "--version") || !std::strcmp(argv[i], "-v")) {
            std::fputs(fxs::versionText("fxscope").c_str(), stdout);
            return 0;
        }
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("fxscope"));
    QApplication::setApplicationName(QStringLiteral("fxscope"));
    QApplication::setApplicationVersion(QStringLiteral(FXSCOPE_VERSION));
    fxs::installLogSink();
    fxs::installQtMessageBridge();

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("A debugger for PyTorch FX graph fusion passes."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("FILE"),
        QStringLiteral("Graph dump to open (any supported format). Without it, the "
                       "bundled sample opens."),
        QStringLiteral("[FILE]"));
    QCommandLineOption graphOption(QStringLiteral("graph"),
        QStringLiteral("Graph to show first, by name or index, when FILE holds several."),
        QStringLiteral("NAME|INDEX"));
    parser.addOption(graphOption);
    // Not "--session": QGuiApplication takes -session/--session for X11 session management before we see it.
    QCommandLineOption sessionOption(QStringLiteral("open-session"),
        QStringLiteral("Restore a saved session (graph, pattern files, steps, candidate, view)."),
        QStringLiteral("FILE.fxsession"));
    parser.addOption(sessionOption);
    QCommandLineOption restoreOption(QStringLiteral("restore"),
        QStringLiteral("Restore where fxscope was when it last closed or was killed (saved as you go)."));
    parser.addOption(restoreOption);
    QCommandLineOption patternsOption(QStringLiteral("patterns"),
        QStringLiteral("Pattern source to load, as File > Open Patterns does; repeatable: a .py or .json file, "
                       "module:callable, inductor:NAME (Inductor's own set), or 'builtin' (the built-in library, shown "
                       "alone while nothing else is loaded)."),
        QStringLiteral("SOURCE"));
    parser.addOption(patternsOption);
    QCommandLineOption compareOption(QStringLiteral("compare"),
        QStringLiteral("Compare the graph shown with a graph of this file, as File > Compare with... does."),
        QStringLiteral("FILE"));
    parser.addOption(compareOption);
    QCommandLineOption compareGraphOption(QStringLiteral("compare-graph"),
        QStringLiteral("The graph of the --compare file, by name or index (default: the graph after FILE's when it is "
                       "the same file, else the first)."),
        QStringLiteral("NAME|INDEX"));
    parser.addOption(compareGraphOption);
    parser.process(app);
    const QStringList files = parser.positionalArguments();
    if (files.size() > 1) {
        fxs::uiLogger()->error("expected at most one FILE, found {}", files.size());
        parser.showHelp(1);
    }

    fxs::Document document;
    fxs::MainWindow window(&document);
    window.show();
    // Opened after show(): the window is up at once and the file streams in behind it.
    const QString session = parser.isSet(restoreOption) ? fxs::MainWindow::autosavePath() : parser.value(sessionOption);
    if (!session.isEmpty() && files.isEmpty()) {
        if (!window.openSession(session)) // the error is shown; the sample keeps the window useful
            document.openBundledSample();
    } else {
        document.open(files.isEmpty() ? fxs::Document::bundledSamplePath() : files.first(), parser.value(graphOption));
    }
    for (const QString &patterns : parser.values(patternsOption)) // one that fails is reported in the window
        document.openPatterns(patterns);
    if (parser.isSet(compareOption)) {
        // Once, when the graph to compare with is shown.
        auto once = std::make_shared<QMetaObject::Connection>();
        *once = QObject::connect(&document, &fxs::Document::currentGraphChanged, &window, [&, once] {
            QObject::disconnect(*once);
            window.compareWith(parser.value(compareOption), parser.value(compareGraphOption));
        });
    }
    return app.exec();
}
