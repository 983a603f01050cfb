#pragma once
// The most recently opened files, newest first, kept in QSettings across runs.

#include <QStringList>

namespace fxs {

class RecentFiles {
public:
    static constexpr int kMaxEntries = 10;

    static QStringList list();
    // Moves `path` (made absolute) to the front, dropping the oldest beyond kMaxEntries.
    static void add(const QString &path);
    static void clear();
};

} // namespace fxs
