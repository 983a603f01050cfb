#include "recent_files.h"

#include <QFileInfo>
#include <QSettings>

namespace fxs {

namespace {
const char kKey[] = "recentFiles";
}

QStringList RecentFiles::list()
{
    return QSettings().value(QLatin1String(kKey)).toStringList();
}

void RecentFiles::add(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList files = list();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxEntries)
        files.removeLast();
    QSettings().setValue(QLatin1String(kKey), files);
}

void RecentFiles::clear()
{
    QSettings().remove(QLatin1String(kKey));
}

} // namespace fxs
