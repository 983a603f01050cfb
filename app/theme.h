#pragma once
// Light and dark palettes: the application's QPalette (Fusion style for dark, where the platform style would not
// follow) and the graph canvas's colours, switched together.

#include <QString>

namespace fxs {

enum class Theme { System, Light, Dark };

QString themeKey(Theme theme); // "system", "light", "dark": the value kept in QSettings
Theme themeFromKey(const QString &key); // unknown keys: System
// Sets the application's palette and the canvas colours; views repaint themselves afterwards
// (GraphCanvas::refreshStyle).
void applyTheme(Theme theme);
// True when `theme` shows dark: Dark, or System on a platform palette whose window colour is dark.
bool themeIsDark(Theme theme);

} // namespace fxs
