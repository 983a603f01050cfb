#pragma once
// fxscope-cli run as users and scripts call it, for the CLI tests: exit code, stdout, stderr.

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>

namespace cli_test {

struct Run {
    int exitCode = -1; // -1: the process crashed or did not finish
    QByteArray out;
    QByteArray err;
};

inline Run cli(const QStringList &args, const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
    int timeoutMs = 120000)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(FXSCOPE_BIN_DIR "/fxscope-cli"), args);
    p.waitForFinished(timeoutMs);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
        p.readAllStandardError()};
}

inline QString corpus(const char *relative)
{
    return QStringLiteral(FXSCOPE_CORPUS_DIR "/") + QLatin1String(relative);
}

inline QJsonObject json(const Run &r)
{
    return QJsonDocument::fromJson(r.out).object();
}

} // namespace cli_test

using cli_test::cli;
using cli_test::corpus;
using cli_test::json;
using cli_test::Run;
